import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { PAGE_SIZES, decodeCursor, encodeCursor } from "#db/queries/paging.ts";
import { createOrganisation, uniqueName } from "./factories.ts";
import { createAccount, get } from "./helpers.ts";
import { seedMembers, seedOrganisations } from "./seed.ts";

const PAGE = PAGE_SIZES.teamMembers;

const adminWithOrganisation = () => createOrganisation({ adminName: "Paula Pager", name: uniqueName("Paged") });

/**
 * `count` people in the organisation with `status`, named `${prefix} 000`…, the higher number the
 * newer; every third pair shares a request time, so the id decides between them.
 */
function seedPeople(organizationId: string, count: number, prefix: string, status: "approved" | "pending") {
  const base = Date.UTC(2024, 0, 1);
  return seedMembers(
    organizationId,
    Array.from({ length: count }, (_, i) => ({
      name: `${prefix} ${String(i).padStart(3, "0")}`,
      status,
      requestedAt: base + Math.floor(i / 2) * 2 * 60_000 + (i % 3 === 0 ? 0 : (i % 2) * 60_000),
    })),
  );
}

const decode = (html: string) => html.replace(/&amp;/g, "&").replace(/&#x27;/g, "'");

function list(html: string, label: string, prefix: string) {
  const start = html.indexOf(`aria-label="${label}"`);
  const end = html.indexOf("</ul>", start);
  // Each name appears several times in its row (accessible names of its buttons): once each, in order.
  return start < 0
    ? []
    : [...new Set([...html.slice(start, end).matchAll(new RegExp(`${prefix} \\d{3}`, "g"))].map((m) => m[0]))];
}

/** The pager's link carrying `param` (confirmation links keep the page's parameters too: not those). */
function link(html: string, param: string) {
  const links = html.matchAll(new RegExp(`href="(/dashboard\\?[^"]*${param.replace(".", "\\.")}=[^"]*)"`, "g"));
  const pager = [...links].map((match) => decode(match[1]!)).find((href) => !href.includes("confirm="));
  return pager ?? null;
}

describe("keyset cursors", () => {
  it("round-trip, and anything malformed is the first page", () => {
    const cursor = { key: 1_700_000_000_000, id: crypto.randomUUID() };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    for (const bad of ["", "%%%", btoa("not json"), btoa('{"a":1}'), btoa("[1]"), "x".repeat(900)])
      expect(decodeCursor(bad)).toBeUndefined();
  });
});

describe("Team Members paging", () => {
  it("pages newest first with a visible count, through every member once, and back", async () => {
    const { admin, organizationId } = await adminWithOrganisation();
    await seedPeople(organizationId, 2 * PAGE + 7, "Member", "approved");
    const total = 2 * PAGE + 8; // the admin is a member too

    const first = await (await get("/dashboard", admin.cookie)).text();
    expect(first).toContain(`Showing ${PAGE} of ${total} members`);
    expect(link(first, "members.before")).toBeNull();
    const seen = list(first, "Team members", "Member");

    const pages = [first];
    let next = link(first, "members.after");
    while (next) {
      const html = await (await get(next, admin.cookie)).text();
      pages.push(html);
      seen.push(...list(html, "Team members", "Member"));
      next = link(html, "members.after");
    }
    expect(pages).toHaveLength(3);
    expect(pages[2]).toContain(`Showing 8 of ${total} members`);
    expect(pages[2]).toContain("Paula Pager"); // the oldest membership, last
    // Every member exactly once, newest first (ties on the request time keep one order).
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toHaveLength(total - 1);
    const rows = await env.DB.prepare(
      "select p.full_name as name from organization_members m join profiles p on p.id = m.user_id where m.organization_id = ? and m.status = 'approved' and p.full_name like 'Member %' order by m.requested_at desc, m.id desc",
    )
      .bind(organizationId)
      .all<{ name: string }>();
    expect(seen).toEqual(rows.results.map((row) => row.name));

    // Previous from the last page is the middle page, and from there the first.
    const middle = await (await get(link(pages[2]!, "members.before")!, admin.cookie)).text();
    expect(list(middle, "Team members", "Member")).toEqual(list(pages[1]!, "Team members", "Member"));
    const back = await (await get(link(middle, "members.before")!, admin.cookie)).text();
    expect(list(back, "Team members", "Member")).toEqual(list(first, "Team members", "Member"));
    expect(link(back, "members.before")).toBeNull();
  });

  it("exactly one page has no next link; a malformed cursor shows the first page", async () => {
    const { admin, organizationId } = await adminWithOrganisation();
    await seedPeople(organizationId, PAGE - 1, "Member", "approved");
    const html = await (await get("/dashboard", admin.cookie)).text();
    expect(html).toContain(`Showing ${PAGE} of ${PAGE} members`);
    expect(link(html, "members.after")).toBeNull();
    const bad = await get("/dashboard?members.after=%7Bnot-a-cursor", admin.cookie);
    expect(bad.status).toBe(200);
    expect(list(await bad.text(), "Team members", "Member")).toEqual(list(html, "Team members", "Member"));
  });

  it("searches by name, case-insensitively, with the count of matches and paging within them", async () => {
    const { admin, organizationId } = await adminWithOrganisation();
    await seedPeople(organizationId, PAGE + 5, "Member", "approved");
    await seedPeople(organizationId, 3, "Other", "approved");
    const html = await (await get("/dashboard?members.q=MEMBER%200", admin.cookie)).text();
    // Every "Member 0nn" seeded here contains "member 0".
    expect(html).toContain(`Showing ${PAGE} of ${PAGE + 5} matching members`);
    const next = link(html, "members.after")!;
    expect(next).toContain("members.q=MEMBER+0");
    const rest = await (await get(next, admin.cookie)).text();
    // (Order is checked above; two of these share a request time.)
    expect(list(rest, "Team members", "Member").sort()).toEqual([
      "Member 000",
      "Member 001",
      "Member 002",
      "Member 003",
      "Member 004",
    ]);
    const none = await (await get("/dashboard?members.q=nobody", admin.cookie)).text();
    expect(none).toContain("No members match &#x27;nobody&#x27;");
    expect(none).toContain(`Showing 0 of 0 matching members`);
  });
});

describe("Pending Requests paging", () => {
  it("pages and searches on its own, keeping the Team Members page", async () => {
    const { admin, organizationId } = await adminWithOrganisation();
    const size = PAGE_SIZES.pendingRequests;
    await seedPeople(organizationId, size + 2, "Asker", "pending");
    await seedPeople(organizationId, PAGE + 1, "Member", "approved");
    const first = await (await get("/dashboard", admin.cookie)).text();
    expect(first).toContain(`Showing ${size} of ${size + 2} requests`);
    const membersNext = link(first, "members.after")!;
    const onMembersPage2 = await (await get(membersNext, admin.cookie)).text();
    const requestsNext = link(onMembersPage2, "requests.after")!;
    expect(requestsNext).toContain("members.after=");
    const both = await (await get(requestsNext, admin.cookie)).text();
    expect(list(both, "Pending requests", "Asker").sort()).toEqual(["Asker 000", "Asker 001"]);
    expect(list(both, "Team members", "Member")).toEqual(list(onMembersPage2, "Team members", "Member"));
    const searched = await (await get("/dashboard?requests.q=asker%2000", admin.cookie)).text();
    expect(searched).toContain("Showing 10 of 10 matching requests");
  });
});

describe("organisation search paging", () => {
  it("pages matches alphabetically (case-insensitively) with their count", async () => {
    const token = `zq${crypto.randomUUID().slice(0, 6)}`;
    const size = PAGE_SIZES.organizations;
    const names = Array.from(
      { length: size + 5 },
      (_, i) => `${i % 2 ? "b" : "B"}${token} ${String(i).padStart(2, "0")}`,
    );
    await seedOrganisations(names);
    const person = await createAccount();
    const first = await (await get(`/dashboard?q=${token}`, person.cookie)).text();
    expect(first).toContain(`Showing ${size} of ${size + 5} matching organisations`);
    const found = (html: string) => [
      ...new Set([...html.matchAll(new RegExp(`[bB]${token} \\d{2}`, "g"))].map((m) => m[0])),
    ];
    const next = link(first, "orgs.after")!;
    expect(next).toContain(`q=${token}`);
    const second = await (await get(next, person.cookie)).text();
    expect(second).toContain(`Showing 5 of ${size + 5} matching organisations`);
    expect([...found(first), ...found(second)]).toEqual(
      [...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())),
    );
  });
});
