import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sniffImage } from "#app/utils/uploads.server.ts";
import { createAccount, get, PNG_BYTES, postForm, postMultipart } from "./helpers.ts";

const today = () => new Date().toISOString().slice(0, 10);

function selfAchievementForm(image?: File, imageUrl?: string) {
  const form = new FormData();
  for (const [name, value] of Object.entries({ intent: "add-self-achievement", formId: "self", title: "Pictured", company: "Studio", date: today(), type: "award" })) {
    form.set(name, value);
  }
  if (image) form.set("image", image);
  if (imageUrl) form.set("imageUrl", imageUrl);
  return form;
}

const storedImageOf = (userId: string) =>
  env.DB.prepare("select image_url as url from achievements where user_id = ?").bind(userId).first<{ url: string | null }>();

describe("image uploads", () => {
  it("recognise JPG, PNG and WebP by their first bytes only", () => {
    expect(sniffImage(PNG_BYTES)?.ext).toBe("png");
    expect(sniffImage(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))?.ext).toBe("jpg");
    expect(sniffImage(new TextEncoder().encode("RIFF\0\0\0\0WEBPVP8 "))?.ext).toBe("webp");
    expect(sniffImage(new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toBeNull();
    expect(sniffImage(new TextEncoder().encode("<!doctype html><script>alert(1)</script>"))).toBeNull();
  });

  it("store a self achievement's image under self-achievements/{userId}/ and serve it with its type and a long cache", async () => {
    const person = await createAccount();
    const response = await postMultipart("/passport?add=self", selfAchievementForm(new File([PNG_BYTES], "photo.png", { type: "image/png" })), { cookie: person.cookie });
    expect(response.status).toBe(302);
    const { url } = (await storedImageOf(person.id))!;
    expect(url).toMatch(new RegExp(`^/media/achievement-images/self-achievements/${person.id}/[0-9a-f-]{36}\\.png$`));
    const media = await get(url!);
    expect(media.headers.get("Content-Type")).toBe("image/png");
    expect(media.headers.get("Cache-Control")).toContain("immutable");
    expect(media.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(new Uint8Array(await media.arrayBuffer())).toEqual(PNG_BYTES);
  });

  it.each([
    ["an HTML file named .png", new File(["<!doctype html><script>alert(1)</script>"], "x.png", { type: "image/png" })],
    ["an SVG", new File(["<svg xmlns='http://www.w3.org/2000/svg'/>"], "x.svg", { type: "image/png" })],
    ["an empty file claiming to be a JPG", new File([new Uint8Array(1)], "x.jpg", { type: "image/jpeg" })],
  ])("refuse %s and store nothing", async (_, file) => {
    const person = await createAccount();
    await postMultipart("/passport?add=self", selfAchievementForm(file), { cookie: person.cookie });
    expect(await storedImageOf(person.id)).toBeNull();
    expect((await env.MEDIA.list({ prefix: `achievement-images/self-achievements/${person.id}/` })).objects).toEqual([]);
  });

  it("refuse an image one byte over 5MB with the spec's message", async () => {
    const person = await createAccount();
    const big = new Uint8Array(5 * 1024 * 1024 + 1);
    big.set(PNG_BYTES);
    const response = await postMultipart("/passport?add=self", selfAchievementForm(new File([big], "big.png", { type: "image/png" })), { cookie: person.cookie });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Image must be less than 5MB.");
    expect(await storedImageOf(person.id)).toBeNull();
  });

  it("take an https image link instead of a file, and refuse any other scheme", async () => {
    const person = await createAccount();
    const refused = await postMultipart("/passport?add=self", selfAchievementForm(undefined, "javascript:alert(1)"), { cookie: person.cookie });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Image URL must be an https:// link");
    await postMultipart("/passport?add=self", selfAchievementForm(undefined, "https://images.example/award.png"), { cookie: person.cookie });
    expect((await storedImageOf(person.id))?.url).toBe("https://images.example/award.png");
  });

  it("an admin's image goes under the organisation's prefix", async () => {
    const admin = await createAccount({ organizationName: "Pictures Ltd" });
    const { id: organizationId } = (await env.DB.prepare("select organization_id as id from organization_roles where user_id = ?").bind(admin.id).first<{ id: string }>())!;
    const member = await createAccount();
    await postForm(`/join/${organizationId}`, {}, { cookie: member.cookie });
    const form = new FormData();
    for (const [name, value] of Object.entries({ intent: "give-achievement", formId: "give", userId: member.id, title: "Framed", date: today(), type: "award" })) form.set(name, value);
    form.set("image", new File([PNG_BYTES], "framed.png", { type: "image/png" }));
    expect((await postMultipart("/dashboard", form, { cookie: admin.cookie })).status).toBe(302);
    expect((await storedImageOf(member.id))?.url).toMatch(new RegExp(`^/media/achievement-images/${organizationId}/[0-9a-f-]{36}\\.png$`));
  });
});

describe("avatar", () => {
  it("overwrites {userId}/avatar.{ext} for the uploader only, with a fresh version in the URL", async () => {
    const person = await createAccount();
    const upload = () => {
      const form = new FormData();
      form.set("intent", "upload-avatar");
      form.set("avatar", new File([PNG_BYTES], "me.png", { type: "image/png" }));
      return postMultipart("/passport", form, { cookie: person.cookie });
    };
    expect((await upload()).status).toBe(302);
    const first = await env.DB.prepare("select avatar_url as url from profiles where id = ?").bind(person.id).first<{ url: string }>();
    expect(first?.url).toMatch(new RegExp(`^/media/avatars/${person.id}/avatar\\.png\\?v=\\d+$`));
    await new Promise((resolve) => setTimeout(resolve, 5));
    await upload();
    const second = await env.DB.prepare("select avatar_url as url from profiles where id = ?").bind(person.id).first<{ url: string }>();
    expect(second?.url).not.toBe(first?.url);
    expect((await env.MEDIA.list({ prefix: `avatars/${person.id}/` })).objects.map((object) => object.key)).toEqual([`avatars/${person.id}/avatar.png`]);
  });

  it("refuses a file that is not an image", async () => {
    const person = await createAccount();
    const form = new FormData();
    form.set("intent", "upload-avatar");
    form.set("avatar", new File(["<html></html>"], "me.png", { type: "image/png" }));
    await postMultipart("/passport", form, { cookie: person.cookie });
    expect(await env.DB.prepare("select avatar_url as url from profiles where id = ?").bind(person.id).first()).toEqual({ url: null });
  });
});
