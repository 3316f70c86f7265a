import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createAccount, get, ORIGIN, postForm, joinByInviteLink } from "./helpers.ts";
import { addSelfAchievement, createOrganisation, giveAchievement } from "./factories.ts";

// What a chat app, LinkedIn or a search engine reads from a shared link: Open Graph and Twitter
// card tags, the canonical URL, and the robots tag the person controls in Settings. Also the
// own passport's print button and "Add to LinkedIn" links.

/** The content of `<meta property|name="key">` in a page, or null. */
function metaContent(html: string, key: string) {
  const tag = new RegExp(`<meta (?:property|name)="${key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}" content="([^"]*)"`);
  return tag.exec(html)?.[1] ?? null;
}

async function personWithAchievements(titles: string[], bio?: string) {
  const person = await createAccount({ name: "Olivia Open" });
  if (bio !== undefined)
    await postForm(
      "/settings?index",
      { intent: "update-profile", fullName: "Olivia Open", bio, isPublic: "on" },
      { cookie: person.cookie },
    );
  for (const title of titles) await addSelfAchievement(person.cookie, { title });
  return person;
}

describe("link previews of a public passport", () => {
  it("has Open Graph and Twitter card tags with the name, a description and the canonical URL", async () => {
    const person = await personWithAchievements(["First Aid", "Fire Warden"]);
    const html = await (await get(`/passport/${person.id}?all=1`)).text();
    const url = `${ORIGIN}/passport/${person.id}`;
    expect(metaContent(html, "og:title")).toBe("Olivia Open · Career Passport");
    expect(metaContent(html, "og:type")).toBe("profile");
    expect(metaContent(html, "og:url")).toBe(url);
    expect(metaContent(html, "og:description")).toBe(
      "Olivia Open&#x27;s career passport: 2 achievements, recognised by the organisations they work with.",
    );
    expect(metaContent(html, "og:image")).toBe(`${url}/card.png`);
    expect(metaContent(html, "og:image:width")).toBe("1200");
    expect(metaContent(html, "og:image:height")).toBe("630");
    expect(metaContent(html, "twitter:card")).toBe("summary_large_image");
    expect(metaContent(html, "twitter:title")).toBe("Olivia Open · Career Passport");
    expect(metaContent(html, "twitter:image")).toBe(`${url}/card.png`);
    // Whatever page was asked for, the canonical URL is the passport's own address.
    expect(html).toContain(`<link rel="canonical" href="${url}"/>`);
    expect(metaContent(html, "robots")).toBeNull();
  });

  it("describes the passport with the bio when there is one", async () => {
    const person = await personWithAchievements([], "Nurse & first-aid trainer.");
    const html = await (await get(`/passport/${person.id}`)).text();
    expect(metaContent(html, "og:description")).toBe("Nurse &amp; first-aid trainer.");
    expect(metaContent(html, "twitter:description")).toBe("Nurse &amp; first-aid trainer.");
  });

  it("a passport switched off or archived shows no preview at all", async () => {
    const hidden = await personWithAchievements(["Secret"]);
    await postForm(
      "/settings?index",
      { intent: "update-profile", fullName: "Olivia Open", bio: "" },
      { cookie: hidden.cookie },
    );
    const archived = await personWithAchievements(["Gone"]);
    await postForm("/settings/danger", { intent: "archive" }, { cookie: archived.cookie });
    for (const person of [hidden, archived]) {
      const response = await get(`/passport/${person.id}`);
      expect(response.status).toBe(404);
      const html = await response.text();
      expect(html).not.toContain("og:");
      expect(html).not.toContain("twitter:");
      expect(html).not.toContain("Olivia Open");
      expect(metaContent(html, "robots")).toBe("noindex");
    }
  });

  it("serves noindex once the person turns off 'Show in search engines', and drops it when turned back on", async () => {
    const person = await personWithAchievements(["Indexed"]);
    // Warm the edge cache first: the change must reach visitors at once.
    await (await get(`/passport/${person.id}`)).text();
    const off = await postForm(
      "/settings?index",
      { intent: "update-preferences", recognitionEmails: "on" },
      { cookie: person.cookie },
    );
    expect(off.status).toBe(302);
    const hidden = await (await get(`/passport/${person.id}`)).text();
    expect(metaContent(hidden, "robots")).toBe("noindex");
    // Still a public passport with its preview: only search engines are asked to stay away.
    expect(metaContent(hidden, "og:title")).toBe("Olivia Open · Career Passport");
    expect(
      await env.DB.prepare("select search_indexing as s from profiles where id = ?").bind(person.id).first(),
    ).toEqual({ s: 0 });

    await postForm(
      "/settings?index",
      { intent: "update-preferences", searchIndexing: "on", recognitionEmails: "on" },
      { cookie: person.cookie },
    );
    expect(metaContent(await (await get(`/passport/${person.id}`)).text(), "robots")).toBeNull();
  });

  it("the landing page has its own card", async () => {
    const html = await (await get("/")).text();
    expect(metaContent(html, "og:title")).toBe("Career Passport · Your lifelong record of achievements");
    expect(metaContent(html, "og:url")).toBe(`${ORIGIN}/`);
    expect(metaContent(html, "og:image")).toBe(`${ORIGIN}/card.png`);
    expect(metaContent(html, "twitter:card")).toBe("summary_large_image");
  });
});

describe("print and LinkedIn on the own passport", () => {
  it("offers 'Print or save as PDF' (the print view with every achievement) and 'Add to LinkedIn' for organisation achievements", async () => {
    const { admin, organizationId } = await createOrganisation({ adminName: "Ada Admin", name: "Linked Org" });
    const member = await personWithAchievements(["Self Made"]);
    await joinByInviteLink(organizationId, member.cookie);
    const { achievementId } = await giveAchievement(admin.cookie, {
      userId: member.id,
      type: "training",
      date: "2024-03-09",
      title: "Safety & Rescue",
    });
    const id = achievementId!;
    // Not before it is accepted.
    expect(await (await get("/passport", member.cookie)).text()).not.toContain("Add to LinkedIn");
    await postForm("/passport", { intent: "accept", achievementId: id }, { cookie: member.cookie });

    const html = await (await get("/passport", member.cookie)).text();
    expect(html).toContain(`href="/passport/${member.id}/print#print"`);
    expect(html).toContain("Print or save as PDF");
    const links = [...html.matchAll(/href="(https:\/\/www\.linkedin\.com\/profile\/add\?[^"]+)"/g)].map(
      (match) => new URL(match[1]!.replaceAll("&amp;", "&")),
    );
    // One, for the organisation's achievement; none for the self achievement. It links the signed
    // credential, which anyone can verify (the public passport when there is none).
    expect(links).toHaveLength(1);
    const credential = await env.DB.prepare("select id from credentials where achievement_id = ?")
      .bind(id)
      .first<{ id: string }>();
    expect(Object.fromEntries(links[0]!.searchParams)).toEqual({
      startTask: "CERTIFICATION_NAME",
      name: "Safety & Rescue",
      organizationName: "Linked Org",
      issueYear: "2024",
      issueMonth: "3",
      certUrl: `${ORIGIN}/credentials/${credential!.id}`,
    });
    expect(html).toContain('aria-label="Add to LinkedIn: Safety &amp; Rescue"');
  });
});
