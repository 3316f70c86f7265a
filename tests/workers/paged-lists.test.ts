import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { PRINTED_ENTRIES_MAX, PUBLIC_PASSPORT_INITIAL_ENTRIES } from "#app/utils/constants.ts";
import { PAGE_SIZES } from "#db/queries/paging.ts";
import { createOrganisation, uniqueName } from "./factories.ts";
import { createAccount, get, joinByInviteLink, ORIGIN, postForm } from "./helpers.ts";
import { seedAchievements, seedNotifications, seedOrganisations } from "./seed.ts";

// The lists issue 18 pages on top of Team Members and the directory: the full passport (and its
// print view, issue 20), the own passport, given achievements, notifications history and the
// organisation switcher. Each is read through keyset links the way a visitor follows them.

const decode = (html: string) => html.replace(/&amp;/g, "&").replace(/&#x27;/g, "'");

/** The href of the link named `Next`/`Previous` inside the pager called `label`, if any. */
function pagerLink(html: string, label: string, name: "Next" | "Previous") {
  const start = html.indexOf(`aria-label="${label}"`);
  if (start < 0) return null;
  const nav = html.slice(start, html.indexOf("</nav>", start));
  const links = [...nav.matchAll(/href="([^"]+)"[^>]*>(.*?)<\/a>/g)];
  const found = links.find((match) => match[2]!.includes(name));
  return found ? decode(found[1]!) : null;
}

/** Entry titles (`Entry 0001`…) as headings, in page order. */
const entries = (html: string) => [...html.matchAll(/>(Entry \d{4})<\/h3>/g)].map((match) => match[1]!);

/**
 * `count` accepted achievements for the person, `Entry 0000`…, the higher the newer. Every
 * fourth pair shares a date, and some of those also share a creation time, so both tie-breaks
 * (creation time, then id) are exercised.
 */
function seedEntries(userId: string, count: number, { hidden = 0 } = {}) {
  return seedAchievements(
    Array.from({ length: count }, (_, i) => {
      const day = Math.floor(i / 2) + (i % 4 === 0 ? 0 : i % 2);
      return {
        userId,
        title: `Entry ${String(i).padStart(4, "0")}`,
        date: new Date(Date.UTC(2000, 0, 1) + day * 86_400_000).toISOString().slice(0, 10),
        visible: i >= hidden,
        createdAt: Date.UTC(2024, 0, 1) + Math.floor(i / 3) * 1000,
      };
    }),
  );
}

/** The shown entries in the passport's order, straight from D1. */
async function expectedOrder(userId: string) {
  const rows = await env.DB.prepare(
    "select title from achievements where user_id = ? and status = 'accepted' and is_visible = 1 order by date desc, created_at desc, id desc",
  )
    .bind(userId)
    .all<{ title: string }>();
  return rows.results.map((row) => row.title);
}

/** Follows Next from `path` to the end; the pages' HTML in order. */
async function followNext(path: string, label: string, cookie?: string) {
  const pages: string[] = [];
  let next: string | null = path;
  while (next) {
    const html = await (await get(next, cookie)).text();
    pages.push(html);
    next = pagerLink(html, label, "Next");
    if (pages.length > 100) throw new Error("paging does not end");
  }
  return pages;
}

const PASSPORT_PAGE = PAGE_SIZES.passport;
const PASSPORT_PAGER = "Achievement pages";

describe("the full public passport (?all=1)", () => {
  it("pages newest first through every shown entry once, ties included, with the count, and back", async () => {
    const person = await createAccount({ name: "Lena Long" });
    await seedEntries(person.id, 2 * PASSPORT_PAGE + 7 + 3, { hidden: 3 });
    const total = 2 * PASSPORT_PAGE + 7;
    const pages = await followNext(`/passport/${person.id}?all=1`, PASSPORT_PAGER);
    expect(pages).toHaveLength(3);
    expect(pages[0]).toContain(`Showing ${PASSPORT_PAGE} of ${total} achievements`);
    expect(pages[2]).toContain(`Showing 7 of ${total} achievements`);
    expect(pagerLink(pages[0]!, PASSPORT_PAGER, "Previous")).toBeNull();
    const seen = pages.flatMap(entries);
    // Hidden entries are neither shown nor counted; every shown one appears once, in order.
    expect(seen).toEqual(await expectedOrder(person.id));
    expect(seen).not.toContain("Entry 0000");

    const middle = await (await get(pagerLink(pages[2]!, PASSPORT_PAGER, "Previous")!)).text();
    expect(entries(middle)).toEqual(entries(pages[1]!));
    const first = await (await get(pagerLink(middle, PASSPORT_PAGER, "Previous")!)).text();
    expect(entries(first)).toEqual(entries(pages[0]!));
    expect(pagerLink(first, PASSPORT_PAGER, "Previous")).toBeNull();
    // Paged, so no "View More" below a page of the full list.
    expect(first).not.toContain("View More Achievements");
  });

  it("an exact multiple of the page size ends without a Next link; an empty passport says so", async () => {
    const person = await createAccount({ name: "Eve Exact" });
    await seedEntries(person.id, 2 * PASSPORT_PAGE);
    const pages = await followNext(`/passport/${person.id}?all=1`, PASSPORT_PAGER);
    expect(pages).toHaveLength(2);
    expect(pages[1]).toContain(`Showing ${PASSPORT_PAGE} of ${2 * PASSPORT_PAGE} achievements`);

    const empty = await createAccount({ name: "Nia None" });
    const html = await (await get(`/passport/${empty.id}?all=1`)).text();
    expect(html).toContain("No achievements yet");
    expect(html).toContain("Showing 0 of 0 achievements");
    expect(pagerLink(html, PASSPORT_PAGER, "Next")).toBeNull();
  });

  it("holds 2,000 entries: every page one D1 round trip, every entry once, in order", async () => {
    const person = await createAccount({ name: "Tom Thousands" });
    await seedEntries(person.id, 2000);
    const seen: string[] = [];
    let next: string | null = `/passport/${person.id}?all=1`;
    let pages = 0;
    while (next) {
      const response = await get(next);
      expect(Number(response.headers.get("X-D1-Round-Trips"))).toBe(1);
      const html = await response.text();
      seen.push(...entries(html));
      next = pagerLink(html, PASSPORT_PAGER, "Next");
      pages++;
    }
    expect(pages).toBe(2000 / PASSPORT_PAGE);
    expect(seen).toEqual(await expectedOrder(person.id));
  });

  it("a malformed or foreign cursor shows the first page", async () => {
    const person = await createAccount({ name: "Bo Broken" });
    await seedEntries(person.id, PASSPORT_PAGE + 1);
    const first = entries(await (await get(`/passport/${person.id}?all=1`)).text());
    for (const cursor of ["%7Bnope", btoa(JSON.stringify(["x", "y"])).replace(/=+$/, "")]) {
      const response = await get(`/passport/${person.id}?all=1&after=${cursor}`);
      expect(response.status).toBe(200);
      expect(entries(await response.text())).toEqual(first);
    }
  });
});

describe("the print view (/passport/{id}/print)", () => {
  it("lists every shown entry (read in chunks) for a visitor, without the call to action, and is not indexed", async () => {
    const person = await createAccount({ name: "Paige Printed" });
    // More than two chunks, so the keyset loop runs past the first batch.
    await seedEntries(person.id, 2 * PAGE_SIZES.printChunk + 11, { hidden: 2 });
    const response = await get(`/passport/${person.id}/print`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(entries(html)).toEqual(await expectedOrder(person.id));
    expect(html).not.toContain("Create Your Passport");
    expect(html).toContain('name="robots" content="noindex"');
    // No script for visitors, like the passport itself.
    expect(html).not.toContain("<script");
    // One cached address: a query string names the same page, so it cannot force a fresh render
    // of every entry (the cache's side: passport-cache.test.ts).
    const varied = await get(`/passport/${person.id}/print?bust=1`);
    expect(varied.status).toBe(200);
    expect(entries(await varied.text())).toEqual(await expectedOrder(person.id));
  });

  it("the first page offers it to visitors, and a passport too long to print whole prints a pointer to it", async () => {
    const person = await createAccount({ name: "Pat Pointer" });
    // Up to PRINTED_ENTRIES_MAX entries print whole (tests/workers/passport-print.test.ts).
    await seedEntries(person.id, PRINTED_ENTRIES_MAX + 1);
    const html = await (await get(`/passport/${person.id}`)).text();
    expect(html).toContain(`href="/passport/${person.id}/print"`);
    expect(html).toContain(
      `${PRINTED_ENTRIES_MAX + 1 - PUBLIC_PASSPORT_INITIAL_ENTRIES} more achievements: ${ORIGIN}/passport/${person.id}/print`,
    );
  });

  it("is not found for a private, archived or unknown passport", async () => {
    const person = await createAccount({ name: "Pri Vate" });
    await seedEntries(person.id, 3);
    await env.DB.prepare("update profiles set is_public = 0 where id = ?").bind(person.id).run();
    expect((await get(`/passport/${person.id}/print`)).status).toBe(404);
    // Its owner still sees it.
    expect((await get(`/passport/${person.id}/print`, person.cookie)).status).toBe(200);
    await env.DB.prepare("update profiles set is_public = 1, deleted_at = ? where id = ?")
      .bind(Date.now(), person.id)
      .run();
    expect((await get(`/passport/${person.id}/print`)).status).toBe(404);
    expect((await get(`/passport/${crypto.randomUUID()}/print`)).status).toBe(404);
  });
});

describe("every page of a passport at the edge", () => {
  const cacheStatus = (response: Response) => response.headers.get("X-Passport-Cache");
  async function warm(path: string) {
    for (let attempt = 0; attempt < 20; attempt++) {
      const response = await SELF.fetch(`${ORIGIN}${path}`);
      await response.text();
      if (cacheStatus(response) === "HIT") return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`${path} never came from the cache`);
  }

  it("caches cursor pages and the print view, and a change purges all of them", async () => {
    const person = await createAccount({ name: "Cass Cursor" });
    await seedEntries(person.id, PASSPORT_PAGE + 5);
    const first = await (await get(`/passport/${person.id}?all=1`)).text();
    const second = pagerLink(first, PASSPORT_PAGER, "Next")!;
    const print = `/passport/${person.id}/print`;
    for (const path of [second, print]) await warm(path);

    // The owner hides the oldest entry, which page 2 shows: no cached page may keep it.
    const oldest = await env.DB.prepare(
      "select id, title from achievements where user_id = ? order by date asc, created_at asc, id asc limit 1",
    )
      .bind(person.id)
      .first<{ id: string; title: string }>();
    expect(entries(await (await get(second)).text())).toContain(oldest!.title);
    const hidden = await postForm(
      "/passport",
      { intent: "set-visibility", achievementId: oldest!.id, visible: "false" },
      { cookie: person.cookie },
    );
    expect(hidden.status).toBe(302);

    for (const path of [second, print]) {
      const response = await get(path);
      expect(cacheStatus(response)).toBe("MISS");
      expect(entries(await response.text())).not.toContain(oldest!.title);
    }
  });

  it("lists the passport's fixed addresses in one place, for the purge", async () => {
    const { passportUrls } = await import("#app/utils/passport-cache.server.ts");
    const id = crypto.randomUUID();
    expect(passportUrls(id)).toEqual([
      `/passport/${id}`,
      `/passport/${id}?all=1`,
      `/passport/${id}/print`,
      `/passport/${id}/card.png`,
    ]);
  });
});

describe("the own passport", () => {
  it("pages accepted achievements (hidden ones too) and pending offers, each with its count", async () => {
    const person = await createAccount({ name: "Ona Own" });
    await seedEntries(person.id, PASSPORT_PAGE + 4, { hidden: 2 });
    const pages = await followNext("/passport", "Your achievements pages", person.cookie);
    expect(pages).toHaveLength(2);
    expect(pages[0]).toContain(`Showing ${PASSPORT_PAGE} of ${PASSPORT_PAGE + 4} achievements`);
    expect(pages[1]).toContain(`Showing 4 of ${PASSPORT_PAGE + 4} achievements`);
    const seen = pages.flatMap(entries);
    expect(new Set(seen).size).toBe(PASSPORT_PAGE + 4);
    expect(seen).toContain("Entry 0000"); // hidden, still listed for its owner
    expect(pages[0]).not.toContain("Pending Achievements");

    // Pending offers page on their own, newest first, keeping the other list's place.
    const size = PAGE_SIZES.ownPendingAchievements;
    await seedAchievements(
      Array.from({ length: size + 3 }, (_, i) => ({
        userId: person.id,
        title: `Offer ${String(i).padStart(4, "0")}`,
        status: "pending" as const,
        createdAt: Date.UTC(2024, 0, 1) + i,
      })),
    );
    const onSecond = pagerLink(pages[0]!, "Your achievements pages", "Next")!;
    const withOffers = await (await get(onSecond, person.cookie)).text();
    expect(withOffers).toContain(`Showing ${size} of ${size + 3} pending achievements`);
    const olderOffers = pagerLink(withOffers, "Pending achievements pages", "Next")!;
    expect(olderOffers).toContain("achievements.after=");
    const both = await (await get(olderOffers, person.cookie)).text();
    expect(both).toContain(`Showing 3 of ${size + 3} pending achievements`);
    expect([...both.matchAll(/>(Offer \d{4})<\/h3>/g)].map((match) => match[1])).toEqual([
      "Offer 0002",
      "Offer 0001",
      "Offer 0000",
    ]);
    expect(entries(both)).toEqual(entries(pages[1]!));
  });
});

describe("given achievements (/dashboard/achievements)", () => {
  const GIVEN = PAGE_SIZES.givenAchievements;
  const LABEL = "Given achievements pages";

  async function adminGiving(count: number) {
    const { admin, organizationId } = await createOrganisation({ adminName: "Gia Giver", name: uniqueName("Givers") });
    await seedAchievements(
      Array.from({ length: count }, (_, i) => ({
        userId: admin.id,
        organizationId,
        title: `Entry ${String(i).padStart(4, "0")}`,
        status: "pending" as const,
        // Every other pair shares a creation time: the id decides between them.
        createdAt: Date.UTC(2024, 0, 1) + Math.floor(i / 2) * 1000,
      })),
    );
    return { admin, organizationId };
  }
  const given = (html: string) => [...html.matchAll(/>(Entry \d{4})<\/p>/g)].map((match) => match[1]!);

  it("pages newest first by keyset with the count, ties included, and back", async () => {
    const { admin, organizationId } = await adminGiving(2 * GIVEN + 3);
    const pages = await followNext("/dashboard/achievements", LABEL, admin.cookie);
    expect(pages).toHaveLength(3);
    expect(pages[0]).toContain(`Showing ${GIVEN} of ${2 * GIVEN + 3} given achievements`);
    expect(pages[2]).toContain(`Showing 3 of ${2 * GIVEN + 3} given achievements`);
    const rows = await env.DB.prepare(
      "select title from achievements where organization_id = ? order by created_at desc, id desc",
    )
      .bind(organizationId)
      .all<{ title: string }>();
    expect(pages.flatMap(given)).toEqual(rows.results.map((row) => row.title));
    const back = await (await get(pagerLink(pages[2]!, LABEL, "Previous")!, admin.cookie)).text();
    expect(given(back)).toEqual(given(pages[1]!));
  });

  it("an exact page has no Next; none given shows the empty list and a zero count", async () => {
    const exact = await adminGiving(GIVEN);
    const html = await (await get("/dashboard/achievements", exact.admin.cookie)).text();
    expect(html).toContain(`Showing ${GIVEN} of ${GIVEN} given achievements`);
    expect(pagerLink(html, LABEL, "Next")).toBeNull();
    const none = await adminGiving(0);
    const empty = await (await get("/dashboard/achievements", none.admin.cookie)).text();
    expect(empty).toContain("No achievements given yet.");
    expect(empty).toContain("Showing 0 of 0 given achievements");
  });
});

describe("notifications history (/notifications)", () => {
  const SIZE = PAGE_SIZES.notifications;
  const LABEL = "Notification pages";

  async function personWithNotifications(count: number) {
    const person = await createAccount();
    // The account's own welcome notifications, if any, are part of the history too.
    await seedNotifications(
      person.id,
      Array.from({ length: count }, (_, i) => ({
        title: `Entry ${String(i).padStart(4, "0")}`,
        createdAt: Date.UTC(2024, 0, 1) + Math.floor(i / 2) * 1000,
      })),
    );
    return person;
  }
  const titles = (html: string) => {
    // The page's list only (the bell's first page rides along in the shell's data).
    const main = html.slice(html.indexOf("<main"), html.indexOf("</main>"));
    return [...new Set([...main.matchAll(/(Entry \d{4})/g)].map((match) => match[1]!))];
  };

  it("pages newest first with the count; marking read comes back to the same page", async () => {
    const person = await personWithNotifications(2 * SIZE + 5);
    const total = (await env.DB.prepare("select count(*) as n from notifications where user_id = ?")
      .bind(person.id)
      .first<{ n: number }>())!.n;
    const pages = await followNext("/notifications", LABEL, person.cookie);
    expect(pages).toHaveLength(Math.ceil(total / SIZE));
    expect(pages[0]).toContain(`Showing ${SIZE} of ${total} notifications`);
    const rows = await env.DB.prepare(
      "select title from notifications where user_id = ? and title like 'Entry %' order by created_at desc, id desc",
    )
      .bind(person.id)
      .all<{ title: string }>();
    expect(pages.flatMap(titles)).toEqual(rows.results.map((row) => row.title));

    const second = pagerLink(pages[0]!, LABEL, "Next")!;
    const marked = await postForm(second, { intent: "mark-all-read", redirectTo: second }, { cookie: person.cookie });
    expect(marked.headers.get("Location")).toBe(second);
  });

  it("an empty history has no pager", async () => {
    const person = await personWithNotifications(0);
    await env.DB.prepare("delete from notifications where user_id = ?").bind(person.id).run();
    const html = await (await get("/notifications", person.cookie)).text();
    expect(html).not.toContain(`aria-label="${LABEL}"`);
  });
});

describe("the organisation switcher", () => {
  const SIZE = PAGE_SIZES.memberOrganizations;
  const LABEL = "Organisation pages";

  it("pages every organisation alphabetically with the count, and switches to one past the first page", async () => {
    const person = await createAccount({ name: "Mo Many" });
    const token = `sw${crypto.randomUUID().slice(0, 6)}`;
    const names = Array.from(
      { length: SIZE + 5 },
      (_, i) => `${i % 2 ? "a" : "A"}${token} ${String(i).padStart(3, "0")}`,
    );
    const ids = await seedOrganisations(names, { memberId: person.id });
    const switcher = (html: string) => [
      ...new Set(
        [...html.matchAll(new RegExp(`value="[^"]+"[^>]*>([aA]${token} \\d{3})</button>`, "g"))].map((m) => m[1]!),
      ),
    ];
    const pages = await followNext("/passport", LABEL, person.cookie);
    expect(pages).toHaveLength(2);
    expect(pages[0]).toContain(`Showing ${SIZE} of ${SIZE + 5} organisations`);
    expect(pages[1]).toContain(`Showing 5 of ${SIZE + 5} organisations`);
    // The switcher stays open on the page it was paged to.
    expect(pages[1]).toMatch(/<details[^>]* open=""/);
    expect(pages.flatMap(switcher)).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));

    const lastName = [...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())).at(-1)!;
    const last = ids[names.indexOf(lastName)]!;
    const switched = await postForm("/organizations/active", { organizationId: last }, { cookie: person.cookie });
    expect(switched.status).toBe(302);
    const active = await env.DB.prepare("select active_organization_id as id from profiles where id = ?")
      .bind(person.id)
      .first<{ id: string }>();
    expect(active!.id).toBe(last);
    // The active organisation is named even when it is not on the switcher's first page.
    const firstPage = await (await get("/passport", person.cookie)).text();
    expect(switcher(firstPage)).not.toContain(lastName);
    expect(firstPage).toContain(lastName);
  });

  it("one organisation shows no pager; an organisation the person left cannot be switched to", async () => {
    const { admin } = await createOrganisation({ adminName: "Ola One", name: uniqueName("Solo") });
    const html = await (await get("/passport", admin.cookie)).text();
    expect(html).not.toContain(`aria-label="${LABEL}"`);
    const { organizationId: elsewhere } = await createOrganisation({
      adminName: "Ora Other",
      name: uniqueName("Else"),
    });
    const refused = await postForm("/organizations/active", { organizationId: elsewhere }, { cookie: admin.cookie });
    expect(refused.status).toBe(403);
    await joinByInviteLink(elsewhere, admin.cookie);
    const allowed = await postForm("/organizations/active", { organizationId: elsewhere }, { cookie: admin.cookie });
    expect(allowed.status).toBe(302);
  });
});
