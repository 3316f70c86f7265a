import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { DurationProbe, sniffMedia } from "#app/utils/media-types.server.ts";
import {
  createAccount,
  get,
  JPEG_BYTES,
  mp4Bytes,
  ORIGIN,
  PNG_BYTES,
  postForm,
  postMultipart,
  profileMediaForm,
  selfAchievementForm,
  toastFrom,
  webmBytes,
} from "./helpers.ts";
import { today } from "#tests/today.ts";

const MB = 1024 * 1024;

const storedMediaOf = (userId: string) =>
  // A member's 'Member of …' entry (decision 070) carries no media: only achievements are read.
  env.DB.prepare(
    "select image_url as imageUrl, video_url as videoUrl from achievements where user_id = ? and membership_organization_id is null",
  )
    .bind(userId)
    .first<{ imageUrl: string | null; videoUrl: string | null }>();
const keysUnder = async (prefix: string) => (await env.MEDIA.list({ prefix })).objects.map((object) => object.key);
const selfKeys = (userId: string) =>
  Promise.all([
    keysUnder(`achievement-images/self-achievements/${userId}/`),
    keysUnder(`achievement-videos/self-achievements/${userId}/`),
  ]).then((lists) => lists.flat());
const video = (bytes: Uint8Array, name = "clip.mp4", type = "video/mp4") => new File([bytes.slice()], name, { type });

describe("recognising files by their bytes", () => {
  it("tells JPG, PNG, WebP, MP4, MOV and WebM apart and refuses anything else", () => {
    const text = (value: string) => new TextEncoder().encode(value);
    expect(sniffMedia(PNG_BYTES)?.ext).toBe("png");
    expect(sniffMedia(JPEG_BYTES)?.mime).toBe("image/jpeg");
    expect(sniffMedia(text("RIFF\0\0\0\0WEBPVP8 "))?.ext).toBe("webp");
    expect(sniffMedia(mp4Bytes({ seconds: 1 }))).toEqual({ kind: "video", ext: "mp4", mime: "video/mp4" });
    expect(sniffMedia(text("\0\0\0\x14ftypqt  \0\0\0\0qt  "))).toEqual({
      kind: "video",
      ext: "mov",
      mime: "video/quicktime",
    });
    expect(sniffMedia(webmBytes({ seconds: 1 }))).toEqual({ kind: "video", ext: "webm", mime: "video/webm" });
    expect(sniffMedia(text("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toBeNull();
    expect(sniffMedia(text("<!doctype html><script>alert(1)</script>"))).toBeNull();
  });

  it("reads a video's duration from its header however the bytes are split, and refuses a cut-off file", () => {
    const measure = (bytes: Uint8Array, chunk: number) => {
      const probe = new DurationProbe(sniffMedia(bytes)!);
      for (let offset = 0; offset < bytes.length; offset += chunk) probe.push(bytes.subarray(offset, offset + chunk));
      return probe.end();
    };
    for (const chunk of [1, 7, 4096]) {
      expect(measure(mp4Bytes({ seconds: 12.5 }), chunk)).toBe(12.5);
      expect(measure(webmBytes({ seconds: 31 }), chunk)).toBe(31);
    }
    const mp4 = mp4Bytes({ seconds: 5 });
    expect(measure(mp4.subarray(0, mp4.length - 1), 64)).toBeNull();
    expect(measure(mp4.subarray(0, 100), 64)).toBeNull();
    const webm = webmBytes({ seconds: 5 });
    expect(measure(webm.subarray(0, webm.length - 1), 64)).toBeNull();
  });
});

describe("achievement media", () => {
  it("store a self achievement's image under self-achievements/{userId}/ and serve it with its type and a long cache", async () => {
    const person = await createAccount();
    const response = await postMultipart(
      "/passport?add=self",
      selfAchievementForm({ media: new File([PNG_BYTES], "photo.png", { type: "image/png" }) }),
      { cookie: person.cookie },
    );
    expect(response.status).toBe(302);
    const { imageUrl } = (await storedMediaOf(person.id))!;
    expect(imageUrl).toMatch(
      new RegExp(`^/media/achievement-images/self-achievements/${person.id}/[0-9a-f-]{36}\\.png$`),
    );
    const media = await get(imageUrl!);
    expect(media.headers.get("Content-Type")).toBe("image/png");
    expect(media.headers.get("Cache-Control")).toContain("immutable");
    expect(media.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(new Uint8Array(await media.arrayBuffer())).toEqual(PNG_BYTES);
  });

  it("store a video with the browser's thumbnail as its picture, and serve byte ranges of it", async () => {
    const person = await createAccount();
    const bytes = mp4Bytes({ seconds: 20 });
    const form = selfAchievementForm({
      media: video(bytes),
      thumbnail: new File([JPEG_BYTES], "clip-thumbnail.jpg", { type: "image/jpeg" }),
    });
    expect((await postMultipart("/passport?add=self", form, { cookie: person.cookie })).status).toBe(302);
    const { imageUrl, videoUrl } = (await storedMediaOf(person.id))!;
    expect(videoUrl).toMatch(
      new RegExp(`^/media/achievement-videos/self-achievements/${person.id}/[0-9a-f-]{36}\\.mp4$`),
    );
    expect(imageUrl).toMatch(
      new RegExp(`^/media/achievement-images/self-achievements/${person.id}/[0-9a-f-]{36}\\.jpg$`),
    );
    const range = await fetchRange(videoUrl!, "bytes=4-11");
    expect(range.status).toBe(206);
    expect(range.headers.get("Content-Type")).toBe("video/mp4");
    expect(new TextDecoder().decode(await range.arrayBuffer())).toBe("ftypisom");
  });

  it("prefer a chosen cover image to the thumbnail, and leave no unused file behind", async () => {
    const person = await createAccount();
    const form = selfAchievementForm({
      media: video(webmBytes({ seconds: 3 }), "clip.webm", "video/webm"),
      cover: new File([PNG_BYTES], "cover.png", { type: "image/png" }),
      thumbnail: new File([JPEG_BYTES], "thumb.jpg", { type: "image/jpeg" }),
    });
    expect((await postMultipart("/passport?add=self", form, { cookie: person.cookie })).status).toBe(302);
    const { imageUrl, videoUrl } = (await storedMediaOf(person.id))!;
    expect(imageUrl).toMatch(/\.png$/);
    expect(videoUrl).toMatch(/\.webm$/);
    expect(await selfKeys(person.id)).toHaveLength(2);
  });

  it("stream a video larger than one R2 part intact", async () => {
    const person = await createAccount();
    const bytes = mp4Bytes({ seconds: 30, mediaBytes: 12 * MB });
    // A pattern in the media data (after the 28-byte ftyp and 8-byte mdat headers), so a part
    // stored out of place or twice would show.
    for (let i = 36; i < 36 + 12 * MB; i++) bytes[i] = i % 251;
    expect(
      (
        await postMultipart("/passport?add=self", selfAchievementForm({ media: video(bytes) }), {
          cookie: person.cookie,
        })
      ).status,
    ).toBe(302);
    const { videoUrl } = (await storedMediaOf(person.id))!;
    const stored = new Uint8Array(await (await get(videoUrl!)).arrayBuffer());
    expect(stored.length).toBe(bytes.length);
    expect(stored.every((byte, i) => byte === bytes[i])).toBe(true);
    const tail = await fetchRange(videoUrl!, `bytes=${11 * MB}-${11 * MB + 9}`);
    expect(tail.status).toBe(206);
    expect([...new Uint8Array(await tail.arrayBuffer())]).toEqual([...bytes.subarray(11 * MB, 11 * MB + 10)]);
  });

  it.each([
    [
      "an HTML file named .png",
      new File(["<!doctype html><script>alert(1)</script>"], "x.png", { type: "image/png" }),
      "Choose a JPG, PNG or WebP image, or an MP4, MOV or WebM video.",
    ],
    [
      "an SVG",
      new File(["<svg xmlns='http://www.w3.org/2000/svg'/>"], "x.svg", { type: "image/png" }),
      "Choose a JPG, PNG or WebP image, or an MP4, MOV or WebM video.",
    ],
    [
      "a one-byte file claiming to be a JPG",
      new File([new Uint8Array(1)], "x.jpg", { type: "image/jpeg" }),
      "Choose a JPG, PNG or WebP image, or an MP4, MOV or WebM video.",
    ],
    ["a truncated MP4", video(mp4Bytes({ seconds: 10 }).subarray(0, 900)), "Failed to validate video duration."],
    [
      "a video over 60 seconds",
      video(mp4Bytes({ seconds: 60.5 })),
      "Achievement video must be 60 seconds (1 minute) or less.",
    ],
    [
      "a WebM over 60 seconds",
      video(webmBytes({ seconds: 61 }), "x.webm", "video/webm"),
      "Achievement video must be 60 seconds (1 minute) or less.",
    ],
  ])("refuse %s with a message, keep the typed fields, and store nothing", async (_, file, message) => {
    const person = await createAccount();
    const response = await postMultipart("/passport?add=self", selfAchievementForm({ media: file }), {
      cookie: person.cookie,
    });
    expect(response.status).toBe(400);
    const body = await response.text();
    expect(body).toContain(message);
    expect(body).toContain("Studio");
    expect(await storedMediaOf(person.id)).toBeNull();
    expect(await selfKeys(person.id)).toEqual([]);
  });

  it.each([
    [
      "an image",
      new File([PNG_BYTES, new Uint8Array(5 * MB + 1 - PNG_BYTES.length)], "big.png", { type: "image/png" }),
      "Image must be less than 5MB.",
    ],
  ])("refuse %s one byte over its limit", async (_, file, message) => {
    // (The video limit is checked the same way, one byte over 25MB, by the intro video test: a
    // 50MB body refused mid-stream broke the test runner's storage connection.)
    expect(file.size).toBe(5 * MB + 1);
    const person = await createAccount();
    const response = await postMultipart("/passport?add=self", selfAchievementForm({ media: file }), {
      cookie: person.cookie,
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(message);
    expect(await selfKeys(person.id)).toEqual([]);
  });

  it("refuse a cover image over 5MB with its own message", async () => {
    const person = await createAccount();
    const cover = new File([PNG_BYTES, new Uint8Array(5 * MB)], "cover.png", { type: "image/png" });
    const response = await postMultipart(
      "/passport?add=self",
      selfAchievementForm({ media: video(mp4Bytes({ seconds: 3 })), cover }),
      { cookie: person.cookie },
    );
    expect(await response.text()).toContain("Cover image must be less than 5MB.");
    expect(await selfKeys(person.id)).toEqual([]);
  });

  it("refuse a file in a field the form does not have", async () => {
    const person = await createAccount();
    const response = await postMultipart(
      "/passport?add=self",
      selfAchievementForm({ avatar: new File([PNG_BYTES], "a.png", { type: "image/png" }) }),
      { cookie: person.cookie },
    );
    expect(response.status).toBe(400);
    expect(await storedMediaOf(person.id)).toBeNull();
  });

  it("take an https image or video link instead of a file, and refuse any other scheme", async () => {
    const person = await createAccount();
    const refused = await postMultipart("/passport?add=self", selfAchievementForm({}, "javascript:alert(1)"), {
      cookie: person.cookie,
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Image or video URL must be an https:// link");
    await postMultipart("/passport?add=self", selfAchievementForm({}, "https://videos.example/award.mp4"), {
      cookie: person.cookie,
    });
    expect(await storedMediaOf(person.id)).toEqual({ imageUrl: null, videoUrl: "https://videos.example/award.mp4" });
  });

  it("an admin's media goes under the organisation's prefix; a member cannot send any", async () => {
    const admin = await createAccount({ organizationName: "Pictures Ltd" });
    const { id: organizationId } = (await env.DB.prepare(
      "select organization_id as id from organization_roles where user_id = ?",
    )
      .bind(admin.id)
      .first<{ id: string }>())!;
    const member = await createAccount();
    await postForm("/dashboard", { intent: "request-join", organizationId }, { cookie: member.cookie });
    const form = new FormData();
    for (const [name, value] of Object.entries({
      formId: "give",
      intent: "give-achievement",
      userId: member.id,
      title: "Framed",
      date: today(),
      type: "award",
    }))
      form.set(name, value);
    form.set("media", video(mp4Bytes({ seconds: 8 })));
    // A pending member is no one to give to: refused, and the video is gone again.
    await postMultipart("/dashboard", form, { cookie: admin.cookie });
    expect(await keysUnder(`achievement-videos/${organizationId}/`)).toEqual([]);
    expect((await postMultipart("/dashboard", form, { cookie: member.cookie })).status).toBe(403);
    expect(await keysUnder(`achievement-videos/${organizationId}/`)).toEqual([]);

    const { id: membershipId } = (await env.DB.prepare("select id from organization_members where user_id = ?")
      .bind(member.id)
      .first<{ id: string }>())!;
    await postForm("/dashboard", { intent: "approve", membershipId }, { cookie: admin.cookie });
    expect((await postMultipart("/dashboard", form, { cookie: admin.cookie })).status).toBe(302);
    expect((await storedMediaOf(member.id))?.videoUrl).toMatch(
      new RegExp(`^/media/achievement-videos/${organizationId}/[0-9a-f-]{36}\\.mp4$`),
    );
  });
});

function fetchRange(path: string, range: string) {
  return SELF.fetch(`${ORIGIN}${path}`, { headers: { Range: range } });
}

const profileOf = (userId: string) =>
  env.DB.prepare(
    "select avatar_url as avatarUrl, intro_video_url as introVideoUrl, intro_video_thumbnail_url as thumbnailUrl from profiles where id = ?",
  )
    .bind(userId)
    .first<{ avatarUrl: string | null; introVideoUrl: string | null; thumbnailUrl: string | null }>();

describe("avatar", () => {
  it("stores each picture under a new unguessable key for the uploader only, and deletes the previous one", async () => {
    const person = await createAccount();
    const upload = () =>
      postMultipart(
        "/profile/media",
        profileMediaForm("upload-avatar", { avatar: new File([PNG_BYTES], "me.png", { type: "image/png" }) }),
        { cookie: person.cookie },
      );
    const first = await upload();
    expect(first.status).toBe(302);
    expect(first.headers.get("Location")).toBe("/settings");
    const before = (await profileOf(person.id))!.avatarUrl;
    expect(before).toMatch(new RegExp(`^/media/avatars/${person.id}/[0-9a-f-]{36}\\.png$`));
    await new Promise((resolve) => setTimeout(resolve, 5));
    await postMultipart(
      "/profile/media",
      profileMediaForm("upload-avatar", { avatar: new File([JPEG_BYTES], "me.jpg", { type: "image/jpeg" }) }),
      { cookie: person.cookie },
    );
    const after = (await profileOf(person.id))!.avatarUrl!;
    expect(after).toMatch(new RegExp(`^/media/avatars/${person.id}/[0-9a-f-]{36}\\.jpg$`));
    expect(await keysUnder(`avatars/${person.id}/`)).toEqual([after.slice("/media/".length)]);
    // The old picture is gone, and no key built from the user id answers.
    expect((await SELF.fetch(`${ORIGIN}${before}`)).status).toBe(404);
    expect((await SELF.fetch(`${ORIGIN}/media/avatars/${person.id}/avatar.jpg`)).status).toBe(404);
  });

  it("refuses a file that is not an image, and anyone signed out", async () => {
    const person = await createAccount();
    await postMultipart(
      "/profile/media",
      profileMediaForm("upload-avatar", { avatar: new File(["<html></html>"], "me.png", { type: "image/png" }) }),
      { cookie: person.cookie },
    );
    expect((await profileOf(person.id))!.avatarUrl).toBeNull();
    const anonymous = await postMultipart(
      "/profile/media",
      profileMediaForm("upload-avatar", { avatar: new File([PNG_BYTES], "me.png", { type: "image/png" }) }),
    );
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toMatch(/^\/auth/);
  });
});

describe("introduction video", () => {
  it("is stored as intro-{userId}-{random id}, replaces (and deletes) the previous one, and Remove clears it", async () => {
    const person = await createAccount();
    const upload = (bytes: Uint8Array) =>
      postMultipart(
        "/profile/media",
        profileMediaForm(
          "upload-intro-video",
          { introVideo: video(bytes), thumbnail: new File([JPEG_BYTES], "t.jpg", { type: "image/jpeg" }) },
          `/passport/${person.id}`,
        ),
        { cookie: person.cookie },
      );
    const response = await upload(mp4Bytes({ seconds: 12 }));
    expect(response.headers.get("Location")).toBe(`/passport/${person.id}`);
    const first = (await profileOf(person.id))!;
    expect(first.introVideoUrl).toMatch(
      new RegExp(`^/media/achievement-videos/intro-${person.id}-[0-9a-f-]{36}\\.mp4$`),
    );
    expect(first.thumbnailUrl).toMatch(
      new RegExp(`^/media/achievement-videos/intro-${person.id}-[0-9a-f-]{36}-thumbnail\\.jpg$`),
    );

    await new Promise((resolve) => setTimeout(resolve, 5));
    await upload(mp4Bytes({ seconds: 29 }));
    const second = (await profileOf(person.id))!;
    expect(second.introVideoUrl).not.toBe(first.introVideoUrl);
    expect(await keysUnder(`achievement-videos/intro-${person.id}-`)).toHaveLength(2);

    await postMultipart("/profile/media", profileMediaForm("remove-intro-video"), { cookie: person.cookie });
    expect(await profileOf(person.id)).toMatchObject({ introVideoUrl: null, thumbnailUrl: null });
    expect(await keysUnder(`achievement-videos/intro-${person.id}-`)).toEqual([]);
  });

  it.each([
    ["a video over 30 seconds", video(mp4Bytes({ seconds: 31 })), "Introduction video must be 30 seconds or less."],
    [
      "a video one byte over 25MB",
      video(mp4Bytes({ seconds: 5, mediaBytes: 25 * MB + 1 - mp4Bytes({ seconds: 5, mediaBytes: 0 }).length })),
      "Please upload a video smaller than 25MB.",
    ],
    ["a picture", new File([PNG_BYTES], "me.mp4", { type: "video/mp4" }), "Please upload a video file."],
    [
      "a WebM whose duration cannot be read",
      video(webmBytes({ seconds: 5 }).subarray(0, 60), "x.webm", "video/webm"),
      "Failed to validate video duration.",
    ],
  ])("refuses %s with the spec's message and stores nothing", async (_, file, message) => {
    const person = await createAccount();
    const response = await postMultipart(
      "/profile/media",
      profileMediaForm("upload-intro-video", { introVideo: file }),
      { cookie: person.cookie },
    );
    expect(response.status).toBe(302);
    expect(toastFrom(response)?.description).toBe(message);
    expect((await profileOf(person.id))!.introVideoUrl).toBeNull();
    expect(await keysUnder(`achievement-videos/intro-${person.id}-`)).toEqual([]);
  });
});

describe("upload attacks", () => {
  const refusedWith = async (form: FormData, message: string) => {
    const person = await createAccount();
    const response = await postMultipart("/passport?add=self", form, { cookie: person.cookie });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(message);
    expect(await storedMediaOf(person.id)).toBeNull();
    expect(await selfKeys(person.id)).toEqual([]);
  };

  it("answers 404, not an error, for a media path that is not valid percent-encoding or climbs out", async () => {
    for (const path of ["/media/%E0", "/media/avatars/%E0%A4%A", "/media/%", "/media/a/../b.png", "/media/a//b.png"]) {
      const response = await SELF.fetch(`${ORIGIN}${path}`);
      expect(response.status, path).toBe(404);
      await response.arrayBuffer();
    }
  });

  it("refuses a JPEG that is also an HTML page", async () => {
    const polyglot = new File(
      [JPEG_BYTES, "<html><body><script>alert(document.cookie)</script></body></html>", new Uint8Array(64)],
      "x.jpg",
      { type: "image/jpeg" },
    );
    await refusedWith(
      selfAchievementForm({ media: polyglot }),
      "This image contains web page code and cannot be used.",
    );
  });

  it("refuses markup split across two chunks of the stream", async () => {
    const padding = new Uint8Array(70_000).fill(0x41);
    const polyglot = new File([PNG_BYTES, padding, "<scr", "ipt>alert(1)</script>"], "x.png", { type: "image/png" });
    await refusedWith(
      selfAchievementForm({ media: polyglot }),
      "This image contains web page code and cannot be used.",
    );
  });

  it("refuses a picture that claims to be a video", async () => {
    await refusedWith(
      selfAchievementForm({ media: new File([PNG_BYTES], "clip.mp4", { type: "video/mp4" }) }),
      "The file&#x27;s contents do not match its type.",
    );
  });

  it("refuses an empty file that has a name", async () => {
    await refusedWith(
      selfAchievementForm({ media: new File([], "empty.png", { type: "image/png" }) }),
      "The file is empty.",
    );
  });

  it("refuses a form with too many parts before storing anything", async () => {
    const form = selfAchievementForm();
    for (let i = 0; i < 40; i++) form.append(`extra${i}`, "x");
    form.set("media", new File([PNG_BYTES], "late.png", { type: "image/png" }));
    await refusedWith(form, "The form has too many parts.");
  });

  it("never uses the file's name: a path-traversal name lands under a random key", async () => {
    const person = await createAccount();
    const form = selfAchievementForm({
      media: new File([PNG_BYTES], "../../../avatars/someone-else/avatar.png", { type: "image/png" }),
    });
    expect((await postMultipart("/passport?add=self", form, { cookie: person.cookie })).status).toBe(302);
    const [key] = await selfKeys(person.id);
    expect(key).toMatch(new RegExp(`^achievement-images/self-achievements/${person.id}/[0-9a-f-]{36}\\.png$`));
  });
});
