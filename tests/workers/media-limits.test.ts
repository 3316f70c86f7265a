import { createExecutionContext, createScheduledController, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { DimensionsProbe, imageDimensions, sniffMedia } from "#app/utils/media-types.server.ts";
import { RATE_LIMITS } from "#app/utils/rate-limit.server.ts";
import { STORAGE_QUOTA_BYTES, storageFullMessage } from "#app/utils/storage-quota.ts";
import { today } from "#tests/today.ts";
import photoJpg from "../fixtures/images/photo-320x200.jpg?inline";
import picturePng from "../fixtures/images/picture-200x120.png?inline";
import lossyWebp from "../fixtures/images/lossy-300x150.webp?inline";
import losslessWebp from "../fixtures/images/lossless-64x48.webp?inline";
import alphaWebp from "../fixtures/images/alpha-120x90.webp?inline";
import { FAULT_HEADER } from "#workers/testing/faults.ts";
import worker from "#workers/test-app.ts";
import { FREQUENT_CRON } from "#workers/scheduled.ts";
import { expectConsoleError } from "./console-errors.ts";
import { createOrganisationWithMember, createPersonWithAchievements } from "./factories.ts";
import { addOnPage, bakedPng, checkOnPage, htmlDecode, outsideOpenBadge2 } from "./import-helpers.ts";
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
} from "./helpers.ts";

// Issue 34, "Requests that cannot be made expensive" (decision 074): an avatar's pixels are
// checked at upload and before the link-preview card draws it; a card that cannot be drawn is not
// drawn again for a minute; each person's files have a quota, tallied with the rows that point
// at them; uploads have a rate per person.

const bytesOf = (dataUrl: string) => Uint8Array.from(atob(dataUrl.split(",")[1]!), (char) => char.charCodeAt(0));

/** A PNG whose header says `width` × `height`; its picture data is a few bytes (never decoded here). */
function pngHeader(width: number, height: number) {
  const bytes = new Uint8Array(8 + 25 + 12 + 12 + 12);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const view = new DataView(bytes.buffer);
  view.setUint32(8, 13);
  bytes.set(new TextEncoder().encode("IHDR"), 12);
  view.setUint32(16, width);
  view.setUint32(20, height);
  bytes.set([8, 2, 0, 0, 0], 24);
  view.setUint32(33, 0);
  bytes.set(new TextEncoder().encode("IDAT"), 37);
  view.setUint32(45, 0);
  bytes.set(new TextEncoder().encode("IEND"), 49);
  return bytes;
}

/** A JPEG whose frame header comes after `exifBytes` of APP1 data, as a camera's does. */
function jpegWithExif(exifBytes: number, frame: { width: number; height: number }) {
  const photo = bytesOf(photoJpg);
  const app1 = new Uint8Array(4 + exifBytes);
  app1.set([0xff, 0xe1, (exifBytes + 2) >> 8, (exifBytes + 2) & 0xff]);
  const out = new Uint8Array(2 + app1.length + photo.length - 2);
  out.set(photo.subarray(0, 2));
  out.set(app1, 2);
  out.set(photo.subarray(2), 2 + app1.length);
  // The SOF0 of the photo, rewritten to the size wanted.
  for (let at = 2 + app1.length; at < out.length - 9; at++) {
    if (out[at] === 0xff && out[at + 1] === 0xc0) {
      new DataView(out.buffer).setUint16(at + 5, frame.height);
      new DataView(out.buffer).setUint16(at + 7, frame.width);
      break;
    }
  }
  return out;
}

const file = (bytes: Uint8Array, name: string, type: string) => new File([bytes.slice()], name, { type });

const uploadAvatar = (cookie: string, avatar: File) =>
  postMultipart("/profile/media", profileMediaForm("upload-avatar", { avatar }), { cookie });
const addPictured = (cookie: string, media: File) =>
  postMultipart("/passport", selfAchievementForm({ media }), { cookie });

const keysUnder = async (prefix: string) => (await env.MEDIA.list({ prefix })).objects;
const avatarOf = async (userId: string) =>
  (await env.DB.prepare("select avatar_url as url from profiles where id = ?").bind(userId).first<{ url: string }>())
    ?.url ?? null;
const tallyOf = async (userId: string) =>
  (await env.DB.prepare("select storage_bytes as bytes from profiles where id = ?")
    .bind(userId)
    .first<{ bytes: number }>())!.bytes;

/** What the person's files take in R2, listed under every prefix of theirs. */
async function bytesInR2(userId: string) {
  const prefixes = [
    `avatars/${userId}/`,
    `achievement-videos/intro-${userId}-`,
    `achievement-images/self-achievements/${userId}/`,
    `achievement-videos/self-achievements/${userId}/`,
  ];
  const lists = await Promise.all(prefixes.map(keysUnder));
  return lists.flat().reduce((sum, object) => sum + object.size, 0);
}

/** Puts the person `bytesLeft` bytes from their quota, as if earlier files had filled it. */
async function fillStorage(userId: string, bytesLeft: number) {
  await env.DB.batch([
    env.DB.prepare("insert into stored_files (key, user_id, bytes, created_at) values (?, ?, ?, 0)").bind(
      `avatars/${userId}/earlier`,
      userId,
      STORAGE_QUOTA_BYTES - bytesLeft,
    ),
    env.DB.prepare("update profiles set storage_bytes = ? where id = ?").bind(STORAGE_QUOTA_BYTES - bytesLeft, userId),
  ]);
}

describe("reading a picture's pixels from its header", () => {
  it.each([
    ["photo-320x200.jpg", photoJpg, { width: 320, height: 200 }],
    ["picture-200x120.png", picturePng, { width: 200, height: 120 }],
    ["lossy-300x150.webp (VP8)", lossyWebp, { width: 300, height: 150 }],
    ["lossless-64x48.webp (VP8L)", losslessWebp, { width: 64, height: 48 }],
    ["alpha-120x90.webp (VP8X)", alphaWebp, { width: 120, height: 90 }],
  ])("reads %s, as Chromium encoded it, however the bytes arrive", (_, dataUrl, size) => {
    const bytes = bytesOf(dataUrl);
    expect(imageDimensions(bytes)).toEqual(size);
    for (const chunk of [1, 5, 64]) {
      const probe = new DimensionsProbe(sniffMedia(bytes)!);
      for (let at = 0; at < bytes.length; at += chunk) probe.push(bytes.subarray(at, at + chunk));
      expect(probe.found).toEqual(size);
    }
  });

  it("passes over a camera's EXIF before the frame, and finds nothing where there is no header", () => {
    expect(imageDimensions(jpegWithExif(60_000, { width: 6000, height: 4000 }))).toEqual({ width: 6000, height: 4000 });
    const photo = bytesOf(photoJpg);
    const cut = photo.subarray(
      0,
      photo.findIndex((byte, at) => byte === 0xff && photo[at + 1] === 0xc0),
    );
    expect(imageDimensions(cut)).toBeNull();
    expect(imageDimensions(bytesOf(picturePng).subarray(0, 20))).toBeNull();
    expect(imageDimensions(new TextEncoder().encode("RIFF\0\0\0\0WEBPVP8 "))).toBeNull();
    expect(imageDimensions(pngHeader(0, 10))).toBeNull();
  });
});

describe("an avatar's pixels at upload", () => {
  it("takes a picture of up to 4096 × 4096 pixels", async () => {
    const person = await createAccount();
    const response = await uploadAvatar(person.cookie, file(pngHeader(4096, 4096), "big.png", "image/png"));
    expect(toastFrom(response)?.title).toBe("Avatar updated");
    expect(await avatarOf(person.id)).toMatch(/\.png$/);
  });

  it.each([
    ["wider", pngHeader(4097, 10), "image/png", "This picture is 4097 × 10 pixels."],
    [
      "taller, behind a camera's EXIF",
      jpegWithExif(30_000, { width: 3000, height: 8000 }),
      "image/jpeg",
      "3000 × 8000",
    ],
  ])("refuses a picture %s than 4096 pixels, with its size, and keeps nothing", async (_, bytes, type, words) => {
    const person = await createAccount();
    const response = await uploadAvatar(person.cookie, file(bytes, "huge", type));
    expect(response.headers.get("Location")).toBe("/settings");
    const toast = toastFrom(response)!;
    expect(toast.title).toBe("Error uploading avatar");
    expect(toast.description).toContain(words);
    expect(toast.description).toContain("at most 4096 × 4096 pixels");
    expect(await avatarOf(person.id)).toBeNull();
    expect(await keysUnder(`avatars/${person.id}/`)).toEqual([]);
    expect(await tallyOf(person.id)).toBe(0);
  });

  it("refuses a picture whose header cannot be read", async () => {
    const person = await createAccount();
    const noFrame = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xd9]);
    const response = await uploadAvatar(person.cookie, file(noFrame, "me.jpg", "image/jpeg"));
    expect(toastFrom(response)).toMatchObject({
      title: "Error uploading avatar",
      description: "This picture could not be read. Choose another JPG, PNG or WebP image.",
    });
    expect(await keysUnder(`avatars/${person.id}/`)).toEqual([]);
  });
});

describe("the link preview card", () => {
  /** Sets a stored avatar directly, as an upload from before the checks (or around them) left it. */
  async function storeAvatar(userId: string, bytes: Uint8Array, type: string) {
    const key = `avatars/${userId}/${crypto.randomUUID()}.${type === "image/png" ? "png" : "jpg"}`;
    await env.MEDIA.put(key, bytes.slice(), { httpMetadata: { contentType: type } });
    await env.DB.prepare("update profiles set avatar_url = ? where id = ?").bind(`/media/${key}`, userId).run();
  }
  const cardOf = async (userId: string) => {
    const response = await get(`/passport/${userId}/card.png`);
    return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
  };
  async function cachedCardOf(userId: string) {
    for (let attempt = 0; attempt < 40; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const card = await cardOf(userId);
      if (card.response.headers.get("X-Card-Cache") === "HIT") return card;
    }
    throw new Error("the card never came from the cache");
  }

  it("draws an oversized stored avatar as the card without one, never decoding it", async () => {
    const without = await createPersonWithAchievements("Olive Oversize", ["Kept Small"]);
    const oversized = await createPersonWithAchievements("Olive Oversize", ["Kept Small"]);
    await storeAvatar(oversized.id, pngHeader(20_000, 20_000), "image/png");
    const plain = await cardOf(without.id);
    const drawn = await cardOf(oversized.id);
    expect(drawn.response.status).toBe(200);
    expect(drawn.bytes).toEqual(plain.bytes);
  });

  it("draws an avatar whose header cannot be read as the card without one", async () => {
    const without = await createPersonWithAchievements("Ursula Unread", ["Badge"]);
    const unreadable = await createPersonWithAchievements("Ursula Unread", ["Badge"]);
    await storeAvatar(unreadable.id, new TextEncoder().encode("not a picture at all"), "image/png");
    const drawn = await cardOf(unreadable.id);
    expect(drawn.response.status).toBe(200);
    expect(drawn.bytes).toEqual((await cardOf(without.id)).bytes);
  });

  it("keeps a failed render for a minute: the next request is answered without drawing again", async () => {
    // The render fails once (logged with its cause); every 503 is logged as a failed request.
    expectConsoleError(/"card render failed"|"request failed".*card\.png.*"status":503/);
    const person = await createPersonWithAchievements("Fay Failing", ["Broken Picture"]);
    // A JPEG whose frame header reads (1×1) but with no JFIF segment and no picture: the card's
    // layout engine (satori) refuses it ("Invalid JPEG"), so the render fails.
    const bare = Uint8Array.from([0xff, 0xd8, ...JPEG_BYTES.subarray(20, 33), 0xff, 0xd9]);
    expect(imageDimensions(bare)).toEqual({ width: 1, height: 1 });
    await storeAvatar(person.id, bare, "image/jpeg");
    const first = await cardOf(person.id);
    expect(first.response.status).toBe(503);
    expect(first.response.headers.get("X-Card-Cache")).toBe("MISS");
    expect(first.response.headers.get("Retry-After")).toBe("60");
    const again = await cachedCardOf(person.id);
    expect(again.response.status).toBe(503);
    expect(again.response.headers.get("Retry-After")).toBe("60");
    // A new picture changes the passport, which forgets the failure with the card.
    const uploaded = await uploadAvatar(person.cookie, file(PNG_BYTES, "me.png", "image/png"));
    expect(toastFrom(uploaded)?.title).toBe("Avatar updated");
    const fresh = await cardOf(person.id);
    expect(fresh.response.status).toBe(200);
    expect(fresh.response.headers.get("X-Card-Cache")).toBe("MISS");
  });
});

describe("storage quota", () => {
  it("tallies the person's files with the rows that point at them, as R2 holds them", async () => {
    const person = await createAccount();
    const png = bytesOf(picturePng);
    await uploadAvatar(person.cookie, file(PNG_BYTES, "a.png", "image/png"));
    expect(await tallyOf(person.id)).toBe(PNG_BYTES.length);
    // A new picture replaces the old one in the tally, as in R2.
    await uploadAvatar(person.cookie, file(png, "b.png", "image/png"));
    expect(await tallyOf(person.id)).toBe(png.length);
    const video = mp4Bytes({ seconds: 3, mediaBytes: 4000 });
    const intro = await postMultipart(
      "/profile/media",
      profileMediaForm("upload-intro-video", {
        introVideo: file(video, "intro.mp4", "video/mp4"),
        thumbnail: file(JPEG_BYTES, "t.jpg", "image/jpeg"),
      }),
      { cookie: person.cookie },
    );
    expect(toastFrom(intro)?.title).toBe("Video uploaded");
    const added = await addPictured(person.cookie, file(PNG_BYTES, "p.png", "image/png"));
    expect(toastFrom(added)?.title).toBe("Achievement added");
    const all = png.length + video.length + JPEG_BYTES.length + PNG_BYTES.length;
    expect(await tallyOf(person.id)).toBe(all);
    expect(await bytesInR2(person.id)).toBe(all);
    // Removing the video takes it (and its thumbnail) off the tally.
    await postMultipart("/profile/media", profileMediaForm("remove-intro-video", {}), { cookie: person.cookie });
    expect(await tallyOf(person.id)).toBe(png.length + PNG_BYTES.length);
    expect(await bytesInR2(person.id)).toBe(png.length + PNG_BYTES.length);
  });

  it("says 'Storage full' for a file that would pass the quota, keeps nothing, and leaves others alone", async () => {
    const person = await createAccount();
    const other = await createAccount();
    await fillStorage(person.id, PNG_BYTES.length - 1);
    const response = await uploadAvatar(person.cookie, file(PNG_BYTES, "a.png", "image/png"));
    const toast = toastFrom(response)!;
    expect(toast.title).toBe("Storage full");
    expect(toast.description).toBe(
      `This file does not fit: ${PNG_BYTES.length - 1} bytes of your 1 GB of storage is left.`,
    );
    expect(await avatarOf(person.id)).toBeNull();
    expect(await keysUnder(`avatars/${person.id}/`)).toEqual([]);
    expect(await tallyOf(person.id)).toBe(STORAGE_QUOTA_BYTES - PNG_BYTES.length + 1);
    // A self achievement's picture too; the same achievement without a file is still added.
    const pictured = await addPictured(person.cookie, file(PNG_BYTES, "p.png", "image/png"));
    expect(pictured.status).toBe(413);
    expect(await pictured.text()).toContain("Storage full");
    expect(await bytesInR2(person.id)).toBe(0);
    const plain = await postMultipart("/passport", selfAchievementForm(), { cookie: person.cookie });
    expect(toastFrom(plain)?.title).toBe("Achievement added");
    // Another person's storage is their own.
    expect(toastFrom(await uploadAvatar(other.cookie, file(PNG_BYTES, "a.png", "image/png")))?.title).toBe(
      "Avatar updated",
    );
  });

  it("says 'Storage full' when another upload took the space this one was checked against, and keeps nothing", async () => {
    const person = await createAccount();
    // Another upload of theirs, stored after this one's check read the tally: only the database sees both.
    await env.DB.prepare("insert into stored_files (key, user_id, bytes, created_at) values (?, ?, ?, 0)")
      .bind(`avatars/${person.id}/racing`, person.id, STORAGE_QUOTA_BYTES - PNG_BYTES.length + 1)
      .run();
    const response = await uploadAvatar(person.cookie, file(PNG_BYTES, "a.png", "image/png"));
    expect(toastFrom(response)).toMatchObject({
      title: "Storage full",
      description: "This file does not fit: your other uploads have filled your 1 GB of storage.",
    });
    expect(await avatarOf(person.id)).toBeNull();
    expect(await keysUnder(`avatars/${person.id}/`)).toEqual([]);
    expect(await tallyOf(person.id)).toBe(0);
  });

  it("does not count an organisation's achievement media against the admin who gives it", async () => {
    const { admin, member } = await createOrganisationWithMember();
    await fillStorage(admin.id, 0);
    const form = new FormData();
    for (const [name, value] of Object.entries({
      formId: "give",
      intent: "give-achievement",
      userId: member.id,
      title: "Shown",
      date: today(),
      type: "award",
    })) {
      form.set(name, value);
    }
    form.set("media", file(PNG_BYTES, "award.png", "image/png"));
    const response = await postMultipart("/dashboard", form, { cookie: admin.cookie });
    expect(toastFrom(response)?.title).toBe("Achievement created");
    expect(await tallyOf(admin.id)).toBe(STORAGE_QUOTA_BYTES);
    expect(await tallyOf(member.id)).toBe(0);
  });

  it("counts an imported credential's kept original, refuses it when it does not fit, and releases it with the entry", async () => {
    const person = await createAccount();
    const other = await createAccount();
    const { assertion } = await outsideOpenBadge2({ email: person.email, host: "quota-png.example" });
    const png = await bakedPng(JSON.stringify(assertion));
    const checkBadge = () => checkOnPage(person.cookie, { file: new File([png], "badge.png", { type: "image/png" }) });
    // Checking keeps a pending file that is not counted; keeping it must fit.
    await fillStorage(person.id, png.length - 1);
    const refused = await addOnPage(person.cookie, (await checkBadge()).nonce!);
    expect(refused.status).toBe(400);
    expect(htmlDecode(await refused.text())).toContain(storageFullMessage(png.length - 1));
    expect(
      await env.DB.prepare("select 1 from imported_credentials where user_id = ?").bind(person.id).first(),
    ).toBeNull();
    expect((await keysUnder(`imports/${person.id}/`)).map((object) => object.key)).toEqual([
      `imports/${person.id}/pending`,
    ]);
    await env.DB.prepare("delete from stored_files where user_id = ?").bind(person.id).run();
    await env.DB.prepare("update profiles set storage_bytes = 0 where id = ?").bind(person.id).run();

    expect((await addOnPage(person.cookie, (await checkBadge()).nonce!)).status).toBe(302);
    expect(await tallyOf(person.id)).toBe(png.length);
    const entry = (await env.DB.prepare("select achievement_id as id from imported_credentials where user_id = ?")
      .bind(person.id)
      .first<{ id: string }>())!;
    const remove = (cookie: string) =>
      postForm("/passport", { intent: "delete-import", achievementId: entry.id }, { cookie });
    expect((await remove(other.cookie)).status).toBe(404);
    expect(await tallyOf(person.id)).toBe(png.length);
    expect(toastFrom(await remove(person.cookie))?.title).toBe("Credential deleted");
    expect(await tallyOf(person.id)).toBe(0);
  });

  it("keeps a replaced file whose delete failed named by a released row, uncounted, until the frequent cron deletes it", async () => {
    const person = await createAccount();
    const png = bytesOf(picturePng);
    await uploadAvatar(person.cookie, file(PNG_BYTES, "a.png", "image/png"));
    const [old] = await keysUnder(`avatars/${person.id}/`);
    expectConsoleError(/"released files not deleted yet"/);
    const replaced = await postMultipart(
      "/profile/media",
      profileMediaForm("upload-avatar", { avatar: file(png, "b.png", "image/png") }),
      {
        cookie: person.cookie,
        headers: { [FAULT_HEADER]: "r2:delete" },
      },
    );
    // The new picture stands; the old one no longer counts, and a row still names it.
    expect(toastFrom(replaced)?.title).toBe("Avatar updated");
    expect(await tallyOf(person.id)).toBe(png.length);
    expect((await keysUnder(`avatars/${person.id}/`)).map((object) => object.key)).toContain(old!.key);
    const released = () =>
      env.DB.prepare("select key from stored_files where released_at is not null and user_id = ?")
        .bind(person.id)
        .all<{ key: string }>()
        .then(({ results }) => results.map((row) => row.key));
    expect(await released()).toEqual([old!.key]);

    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: FREQUENT_CRON }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await released()).toEqual([]);
    expect(await bytesInR2(person.id)).toBe(png.length);
    expect(await tallyOf(person.id)).toBe(png.length);
  });

  it("counts, once, the files a person kept before the tally existed, even past the quota", async () => {
    const person = await createAccount();
    const png = bytesOf(picturePng);
    await uploadAvatar(person.cookie, file(PNG_BYTES, "a.png", "image/png"));
    expect(toastFrom(await addPictured(person.cookie, file(png, "p.png", "image/png")))?.title).toBe(
      "Achievement added",
    );
    // As migration 0026 found them: files in R2 and rows pointing at them, none counted; and one
    // object nothing points at, which counts for nothing.
    await env.MEDIA.put(`avatars/${person.id}/left-over`, PNG_BYTES);
    await env.DB.batch([
      env.DB.prepare("delete from stored_files where user_id = ?").bind(person.id),
      env.DB.prepare("update profiles set storage_bytes = 0, storage_backfill_pending = 1 where id = ?").bind(
        person.id,
      ),
    ]);
    const daily = async () => {
      const ctx = createExecutionContext();
      await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "0 3 * * *" }), env, ctx);
      await waitOnExecutionContext(ctx);
    };
    await daily();
    expect(await tallyOf(person.id)).toBe(PNG_BYTES.length + png.length);
    await daily();
    expect(await tallyOf(person.id)).toBe(PNG_BYTES.length + png.length);

    // Someone whose earlier files pass the quota is counted as they are, and can add nothing more.
    const full = await createAccount();
    await uploadAvatar(full.cookie, file(PNG_BYTES, "a.png", "image/png"));
    await env.DB.batch([
      env.DB.prepare("update stored_files set bytes = ? where user_id = ?").bind(STORAGE_QUOTA_BYTES, full.id),
      env.DB.prepare("update profiles set storage_bytes = 0, storage_backfill_pending = 1 where id = ?").bind(full.id),
    ]);
    await daily();
    expect(await tallyOf(full.id)).toBe(STORAGE_QUOTA_BYTES);
    expect(toastFrom(await uploadAvatar(full.cookie, file(png, "b.png", "image/png")))?.title).toBe("Storage full");
  });

  it("shows the person's own use in Settings", async () => {
    const person = await createAccount();
    await uploadAvatar(person.cookie, file(PNG_BYTES, "a.png", "image/png"));
    const page = await (await get("/settings/data", person.cookie)).text();
    expect(page).toContain(`${PNG_BYTES.length} bytes of 1 GB used`);
    await fillStorage(person.id, 0);
    expect(await (await get("/settings/data", person.cookie)).text()).toContain("Storage full");
  });
});

describe("upload rate", () => {
  it(`refuses a person's uploads past ${RATE_LIMITS.upload.max} in ${RATE_LIMITS.upload.windowSeconds / 60} minutes, counting only requests with a file`, async () => {
    const person = await createAccount();
    const other = await createAccount();
    // Forms without a file are not uploads.
    for (let i = 0; i < 3; i++) await postMultipart("/passport", selfAchievementForm(), { cookie: person.cookie });
    for (let i = 0; i < RATE_LIMITS.upload.max; i++) {
      const response = await uploadAvatar(person.cookie, file(PNG_BYTES, "a.png", "image/png"));
      expect(toastFrom(response)?.title).toBe("Avatar updated");
    }
    const refused = await uploadAvatar(person.cookie, file(PNG_BYTES, "a.png", "image/png"));
    expect(toastFrom(refused)).toMatchObject({
      title: "Error uploading avatar",
      description: "Too many uploads. Please wait 10 minutes and try again.",
    });
    expect(await keysUnder(`avatars/${person.id}/`)).toHaveLength(1);
    // Counted per person, wherever they connect from; another person is not held back.
    const pictured = await addPictured(person.cookie, file(PNG_BYTES, "p.png", "image/png"));
    expect(pictured.status).toBe(429);
    expect(toastFrom(await uploadAvatar(other.cookie, file(PNG_BYTES, "a.png", "image/png")))?.title).toBe(
      "Avatar updated",
    );
  });

  it("stores nothing for a caller who is signed out, and counts nothing for them", async () => {
    const before = await env.DB.prepare("select count(*) as n from rate_limits where key like 'upload:%'").first<{
      n: number;
    }>();
    const response = await SELF.fetch(`${ORIGIN}/profile/media`, {
      method: "POST",
      headers: { Origin: ORIGIN },
      body: profileMediaForm("upload-avatar", { avatar: file(PNG_BYTES, "a.png", "image/png") }),
      redirect: "manual",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(/^\/auth/);
    expect((await env.MEDIA.list({ prefix: "avatars/" })).objects).toEqual([]);
    const after = await env.DB.prepare("select count(*) as n from rate_limits where key like 'upload:%'").first<{
      n: number;
    }>();
    expect(after?.n).toBe(before?.n);
  });
});
