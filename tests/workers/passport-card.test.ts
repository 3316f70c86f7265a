import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { get, PNG_BYTES, postForm } from "./helpers.ts";
import { createPersonWithAchievements } from "./factories.ts";
import { today } from "#tests/today.ts";

// The og:image of a public passport and of the landing page: a 1200x630 PNG drawn on the
// Worker, kept at the edge and purged with the passport.

/** Width and height from a PNG's IHDR chunk, after checking the signature. */
function pngSize(bytes: Uint8Array) {
  expect([...bytes.slice(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(new TextDecoder().decode(bytes.slice(12, 16))).toBe("IHDR");
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

const publicPerson = (titles: string[]) => createPersonWithAchievements("Carla Card", titles);

const card = (userId: string) => get(`/passport/${userId}/card.png`);

describe("link preview cards", () => {
  it("a public passport's card is a 1200x630 PNG, with the avatar drawn in", async () => {
    const person = await publicPerson(["First Aid", "Fire Warden", "Team Lead", "Mentor"]);
    await env.MEDIA.put(`avatars/${person.id}/avatar.png`, PNG_BYTES, { httpMetadata: { contentType: "image/png" } });
    await env.DB.prepare("update profiles set avatar_url = ? where id = ?")
      .bind(`/media/avatars/${person.id}/avatar.png?v=1`, person.id)
      .run();
    const response = await card(person.id);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("image/png");
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(pngSize(bytes)).toEqual({ width: 1200, height: 630 });
    expect(bytes.length).toBeGreaterThan(5_000);
  });

  it("comes from the edge cache until the passport changes", async () => {
    const person = await publicPerson(["Cached Award"]);
    expect((await card(person.id)).headers.get("X-Card-Cache")).toBe("MISS");
    let cached: Response | undefined;
    for (let attempt = 0; attempt < 20 && cached?.headers.get("X-Card-Cache") !== "HIT"; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      cached = await card(person.id);
      await cached.arrayBuffer();
    }
    expect(cached!.headers.get("X-Card-Cache")).toBe("HIT");
    await publicPerson([]); // unrelated
    await postForm(
      "/passport",
      {
        intent: "add-self-achievement",
        formId: "self",
        title: "New One",
        company: "Acme",
        date: today(),
        type: "award",
      },
      { cookie: person.cookie },
    );
    expect((await card(person.id)).headers.get("X-Card-Cache")).toBe("MISS");
  });

  it("asks search engines not to index the card of a person who turned search indexing off, from the cache too", async () => {
    const person = await publicPerson(["Private Search"]);
    const before = await card(person.id);
    expect(before.headers.get("X-Robots-Tag")).toBeNull();
    await before.arrayBuffer();
    await postForm(
      "/settings?index",
      { intent: "update-preferences", recognitionEmails: "on" },
      { cookie: person.cookie },
    );
    const fresh = await card(person.id);
    expect(fresh.headers.get("X-Card-Cache")).toBe("MISS");
    expect(fresh.headers.get("X-Robots-Tag")).toBe("noindex");
    await fresh.arrayBuffer();
    let cached: Response | undefined;
    for (let attempt = 0; attempt < 20 && cached?.headers.get("X-Card-Cache") !== "HIT"; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      cached = await card(person.id);
      await cached.arrayBuffer();
    }
    expect(cached!.headers.get("X-Card-Cache")).toBe("HIT");
    expect(cached!.headers.get("X-Robots-Tag")).toBe("noindex");
  });

  it("a passport switched off, archived or unknown has no card", async () => {
    const hidden = await publicPerson(["Hidden"]);
    await postForm(
      "/settings?index",
      { intent: "update-profile", fullName: "Carla Card", bio: "" },
      { cookie: hidden.cookie },
    );
    const archived = await publicPerson(["Archived"]);
    await postForm("/settings/danger", { intent: "archive" }, { cookie: archived.cookie });
    for (const userId of [hidden.id, archived.id, crypto.randomUUID(), "not-an-id"]) {
      expect((await card(userId)).status).toBe(404);
    }
  });

  it("the landing page has its own card", async () => {
    const response = await get("/card.png");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("image/png");
    expect(pngSize(new Uint8Array(await response.arrayBuffer()))).toEqual({ width: 1200, height: 630 });
  });
});
