import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createAccount, get, pageText } from "./helpers.ts";
import { organizationNameKey } from "#db/queries/organizations.ts";
import { addSelfAchievement } from "./factories.ts";
import { ENDORSEMENTS_PER_CARD } from "#db/queries/achievements/card.ts";
import { PAGE_SIZES } from "#db/queries/paging.ts";

// A public card carries its first few endorsements and how many it has; the rest are on the
// entry's endorsements page, a page at a time (decision 079). Without the bound, a card carried
// every endorsement (up to 500 characters each) on each of up to 50 entries.

const MAX_COMMENT = 500;
const endorsementsPath = (ownerId: string, achievementId: string) =>
  `/passport/${ownerId}/endorsements/${achievementId}`;

/** A person with `entries` achievements on their public passport, newest last. */
async function passportWith(entries: number) {
  const owner = await createAccount({ name: "Olive Owner" });
  for (let index = 0; index < entries; index++)
    expect((await addSelfAchievement(owner.cookie, { title: `Entry ${index}`, company: "Acme" })).status).toBe(302);
  const { results } = await env.DB.prepare("select id from achievements where user_id = ? order by created_at")
    .bind(owner.id)
    .all<{ id: string }>();
  return { owner, achievementIds: results.map((row) => row.id) };
}

/** Endorsements written as rows (the endorse form is endorsements.test.ts's), oldest first: `{marker}-{n}`. */
async function endorsementsFor(
  owner: { id: string },
  achievementId: string,
  count: number,
  { marker, status = "shown" }: { marker: string; status?: "shown" | "pending" | "hidden" },
) {
  const now = Date.now();
  const statements = Array.from({ length: count }, (_, n) =>
    env.DB.prepare(
      `insert into endorsements (id, achievement_id, owner_id, endorser_name, comment, status, credential, created_at)
       values (?, ?, ?, ?, ?, ?, '{}', ?)`,
    ).bind(
      crypto.randomUUID(),
      achievementId,
      owner.id,
      `Endorser ${marker}-${n}`,
      `${marker}-${n}: `.padEnd(MAX_COMMENT, "x"),
      status,
      now - (count - n) * 1000,
    ),
  );
  await env.DB.batch(statements);
}

const occurrences = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;

describe("a public card's endorsements", () => {
  it("carries the first few of each entry and the count, and links to the rest", async () => {
    const many = 30;
    const { owner, achievementIds } = await passportWith(3);
    for (const [index, achievementId] of achievementIds.entries())
      await endorsementsFor(owner, achievementId, many, { marker: `e${index}` });
    await endorsementsFor(owner, achievementIds[0]!, 5, { marker: "pending", status: "pending" });
    await endorsementsFor(owner, achievementIds[0]!, 5, { marker: "hidden", status: "hidden" });

    const response = await get(`/passport/${owner.id}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    const text = await pageText(`/passport/${owner.id}`);
    expect(occurrences(text, /Endorsed by 30\b/g)).toBeGreaterThanOrEqual(3);
    for (const index of achievementIds.keys()) {
      // The oldest ENDORSEMENTS_PER_CARD of each entry, and none after them.
      expect(occurrences(html, new RegExp(`e${index}-\\d+: x`, "g"))).toBe(ENDORSEMENTS_PER_CARD);
      expect(html).toContain(`e${index}-0: x`);
      expect(html).not.toContain(`e${index}-${ENDORSEMENTS_PER_CARD}: x`);
    }
    expect(html).not.toMatch(/pending-\d|hidden-\d/);
    for (const achievementId of achievementIds)
      expect(html).toContain(`href="${endorsementsPath(owner.id, achievementId)}"`);
    expect(text).toContain(`See all ${many} endorsements`);
    // 3 × 30 endorsements of 500 characters would be 45 kB on their own; the page carries 9.
    expect(html.length).toBeLessThan(40_000);
  });

  it("an entry with a few shows them all, with no link to more", async () => {
    const { owner, achievementIds } = await passportWith(1);
    await endorsementsFor(owner, achievementIds[0]!, 2, { marker: "few" });
    const html = await (await get(`/passport/${owner.id}`)).text();
    expect(occurrences(html, /few-\d: x/g)).toBe(2);
    expect(html).not.toContain("See all");
  });
});

describe("an entry's endorsements page (/passport/{userId}/endorsements/{achievementId})", () => {
  it("lists every shown endorsement, oldest first, a page at a time", async () => {
    const total = PAGE_SIZES.entryEndorsements + 5;
    const { owner, achievementIds } = await passportWith(1);
    const achievementId = achievementIds[0]!;
    await endorsementsFor(owner, achievementId, total, { marker: "all" });
    await endorsementsFor(owner, achievementId, 2, { marker: "pending", status: "pending" });

    const first = await get(endorsementsPath(owner.id, achievementId));
    expect(first.status).toBe(200);
    const html = await first.text();
    expect(html).toContain("<title>Endorsements of Entry 0 - Acme · ");
    expect(html).not.toContain("<script");
    const text = await pageText(endorsementsPath(owner.id, achievementId));
    expect(text).toContain(`Endorsed by ${total}`);
    expect(text).toContain(`Showing ${PAGE_SIZES.entryEndorsements} of ${total} endorsements`);
    expect(text).toContain("Olive Owner's passport");
    expect(occurrences(html, /all-\d+: x/g)).toBe(PAGE_SIZES.entryEndorsements);
    expect(html.indexOf("all-0: x")).toBeLessThan(html.indexOf("all-1: x"));
    expect(html).not.toContain("pending-");
    expect(html).toContain('href="/endorsements/');

    const next = /href="([^"]*\?after=[^"]+)"/.exec(html)?.[1]?.replaceAll("&amp;", "&");
    expect(next).toBeDefined();
    const second = await (await get(next!)).text();
    expect(occurrences(second, /all-\d+: x/g)).toBe(5);
    expect(second).toContain(`all-${total - 1}: x`);
  });

  it("an entry without endorsements says so", async () => {
    const { owner, achievementIds } = await passportWith(1);
    const text = await pageText(endorsementsPath(owner.id, achievementIds[0]!));
    expect(text).toContain("Endorsed by 0");
    expect(text).toContain("No endorsements yet");
  });

  it.each([
    ["hidden", "update achievements set is_visible = 0 where id = ?1"],
    ["pending", "update achievements set status = 'pending' where id = ?1"],
    [
      "on an archived passport",
      "update profiles set deleted_at = 1 where id = (select user_id from achievements where id = ?1)",
    ],
  ])("is not found for an entry %s", async (_, statement) => {
    const { owner, achievementIds } = await passportWith(1);
    await endorsementsFor(owner, achievementIds[0]!, 1, { marker: "gone" });
    await env.DB.prepare(statement).bind(achievementIds[0]).run();
    const response = await get(endorsementsPath(owner.id, achievementIds[0]!));
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain("Passport not found");
    expect(html).not.toContain("gone-0");
  });

  it("is not found under another person's id, or for ids that are not UUIDs", async () => {
    const { owner, achievementIds } = await passportWith(1);
    const other = await createAccount();
    expect((await get(endorsementsPath(other.id, achievementIds[0]!))).status).toBe(404);
    expect((await get(endorsementsPath(owner.id, "not-a-uuid"))).status).toBe(404);
    expect((await get(endorsementsPath("nobody", achievementIds[0]!))).status).toBe(404);
  });

  it("a private passport's entry: only its owner reads it", async () => {
    const { owner, achievementIds } = await passportWith(1);
    await endorsementsFor(owner, achievementIds[0]!, 1, { marker: "private" });
    await env.DB.prepare("update profiles set is_public = 0 where id = ?").bind(owner.id).run();
    const path = endorsementsPath(owner.id, achievementIds[0]!);
    expect((await get(path)).status).toBe(404);
    expect((await get(path, (await createAccount()).cookie)).status).toBe(404);
    const own = await get(path, owner.cookie);
    expect(own.status).toBe(200);
    const html = await own.text();
    expect(html).toContain("private-0: x");
    // Nobody endorses their own achievement: no 'Endorse' link for the owner.
    expect(html).not.toContain(`/passport/${owner.id}/endorse/`);
  });
});

// Issue 43, Medium 2: an endorser's name is what they typed; each endorsement says whether a
// person or an organisation made it, and an organisation's domain when it verified one.
describe("who endorsed, in words", () => {
  /** An organisation here, its domain verified when `domain` is given; its id. */
  async function organisation(name: string, domain?: string) {
    const id = crypto.randomUUID();
    await env.DB.prepare(
      "insert into organizations (id, name, name_key, invite_code, created_at) values (?, ?, ?, ?, 0)",
    )
      .bind(id, name, organizationNameKey(name), crypto.randomUUID())
      .run();
    if (domain) {
      await env.DB.prepare(
        "insert into organization_domains (id, organization_id, domain, token, status, name_key, verified_at, created_at) values (?, ?, ?, 't', 'verified', ?, 0, 0)",
      )
        .bind(crypto.randomUUID(), id, domain, organizationNameKey(name))
        .run();
    }
    return id;
  }

  it("says person or organisation, with an organisation's verified domain, on the card and the entry's page", async () => {
    const { owner, achievementIds } = await passportWith(1);
    const achievementId = achievementIds[0]!;
    const verified = await organisation(
      "Verified Endorsers Ltd",
      `endorsers-${crypto.randomUUID().slice(0, 8)}.example`,
    );
    const unverified = await organisation("University of Nowhere");
    const rows: [string, string | null][] = [
      ["Pat Person", null],
      ["Verified Endorsers Ltd", verified],
      ["University of Nowhere", unverified],
    ];
    await env.DB.batch(
      rows.map(([name, organizationId], n) =>
        env.DB.prepare(
          `insert into endorsements (id, achievement_id, owner_id, endorser_organization_id, endorser_name, comment, status, credential, created_at)
           values (?, ?, ?, ?, ?, ?, 'shown', '{}', ?)`,
        ).bind(crypto.randomUUID(), achievementId, owner.id, organizationId, name, `Said by ${name}`, Date.now() + n),
      ),
    );
    const { domain } = (await env.DB.prepare("select domain from organization_domains where organization_id = ?")
      .bind(verified)
      .first<{ domain: string }>())!;
    const expected = [
      "Pat Person Person Said by Pat Person",
      `Verified Endorsers Ltd Organisation, domain verified: ${domain} Said by Verified Endorsers Ltd`,
      "University of Nowhere Organisation, domain not verified Said by University of Nowhere",
    ];
    const card = await pageText(`/passport/${owner.id}`);
    const page = await pageText(endorsementsPath(owner.id, achievementId));
    for (const line of expected) {
      expect(card).toContain(line);
      expect(page).toContain(line);
    }
  });
});
