import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createOrganisation, createOrganisationWithMember, uniqueName } from "./factories.ts";
import { get } from "./helpers.ts";
import { seedMembers } from "./seed.ts";

// Decision 044: Team Members and Pending Requests are searched by the start of any word of a
// member's name, through member_name_words, which triggers keep (migration 0009). These tests
// hold the kept words to the names they come from after every kind of change, the search to
// what it should find, and its D1 cost to the members it finds rather than the organisation.

/** A name's words as migration 0009 makes them (SQLite's lower() folds ASCII letters only). */
const wordsOf = (name: string) =>
  [
    ...new Set(
      name
        .replace(/[A-Z]/g, (letter) => letter.toLowerCase())
        .trim()
        .replace(/-/g, " ")
        .split(" "),
    ),
  ]
    .filter(Boolean)
    .sort();

async function keptWords(membershipId: string) {
  const { results } = await env.DB.prepare("select word from member_name_words where membership_id = ? order by word")
    .bind(membershipId)
    .all<{ word: string }>();
  return results.map((row) => row.word);
}

const membershipIdOf = async (userId: string, organizationId: string) =>
  (await env.DB.prepare("select id from organization_members where user_id = ? and organization_id = ?")
    .bind(userId, organizationId)
    .first<string>("id"))!;

const rename = (userId: string, name: string) =>
  env.DB.prepare("update profiles set full_name = ? where id = ?").bind(name, userId).run();

describe("the words kept for each membership", () => {
  it("are its member's name split into words, after a join, renames, a new profile and a removal", async () => {
    const { member, organizationId } = await createOrganisationWithMember({
      adminName: "Ada Admin",
      memberName: "Mo Member",
      name: uniqueName("Words"),
    });
    const membershipId = await membershipIdOf(member.id, organizationId);
    expect(await keptWords(membershipId)).toEqual(wordsOf("Mo Member"));

    // Quotes, backslashes, hyphens and repeated spaces, which the trigger's JSON must survive.
    for (const name of [`Jean-Luc  O'Neil "JL" \\ Picard`, "Zoë ÉMILE Zola", "Single"]) {
      await rename(member.id, name);
      expect(await keptWords(membershipId)).toEqual(wordsOf(name));
    }
    // A control character makes no valid JSON: the name has no words, and the write still succeeds.
    await rename(member.id, "Tab\tName");
    expect(await keptWords(membershipId)).toEqual([]);

    // A profile written after its membership (a profile is inserted when missing).
    const profile = await env.DB.prepare("select * from profiles where id = ?").bind(member.id).first();
    await env.DB.prepare("delete from profiles where id = ?").bind(member.id).run();
    const columns = Object.keys(profile!);
    await env.DB.prepare(`insert into profiles (${columns.join(", ")}) values (${columns.map(() => "?").join(", ")})`)
      .bind(...columns.map((column) => (column === "full_name" ? "Back Again" : profile![column])))
      .run();
    expect(await keptWords(membershipId)).toEqual(wordsOf("Back Again"));

    // A membership's words go with it.
    await env.DB.prepare("delete from organization_members where id = ?").bind(membershipId).run();
    expect(await keptWords(membershipId)).toEqual([]);
  });
});

describe("a name search", () => {
  const base = Date.UTC(2024, 0, 1);
  const seed = (organizationId: string, names: string[], status: "approved" | "pending" = "approved") =>
    seedMembers(
      organizationId,
      names.map((name, i) => ({ name, status, requestedAt: base + i * 60_000 })),
    );
  const found = async (cookie: string, query: string, list = "Team members") => {
    const html = await (await get(`/dashboard?${query}`, cookie)).text();
    const start = html.indexOf(`aria-label="${list}"`);
    const section = start < 0 ? "" : html.slice(start, html.indexOf("</ul>", start));
    const names = ["Alice Whitfield", "Bob Whitfield-Jones", "Whitney Houston", "Carol Fieldwhit", "Whitby Asker"];
    return names.filter((name) => section.includes(name));
  };

  it("finds the start of any word of a name, with every word searched for, in any order", async () => {
    const { admin, organizationId } = await createOrganisation({ adminName: "Sam Searcher", name: uniqueName("Find") });
    await seed(organizationId, ["Alice Whitfield", "Bob Whitfield-Jones", "Whitney Houston", "Carol Fieldwhit"]);
    await seed(organizationId, ["Whitby Asker"], "pending");

    expect(await found(admin.cookie, "members.q=whit")).toEqual([
      "Alice Whitfield",
      "Bob Whitfield-Jones",
      "Whitney Houston",
    ]);
    expect(await found(admin.cookie, "members.q=WHITFIELD")).toEqual(["Alice Whitfield", "Bob Whitfield-Jones"]);
    expect(await found(admin.cookie, "members.q=jones")).toEqual(["Bob Whitfield-Jones"]);
    expect(await found(admin.cookie, "members.q=whitf%20ali")).toEqual(["Alice Whitfield"]);
    expect(await found(admin.cookie, "members.q=ali%20whitf")).toEqual(["Alice Whitfield"]);
    // Not the middle of a word ("Whitfield"), and not a word that is not there.
    expect(await found(admin.cookie, "members.q=field")).toEqual(["Carol Fieldwhit"]);
    expect(await found(admin.cookie, "members.q=itf")).toEqual([]);
    expect(await found(admin.cookie, "members.q=alice%20houston")).toEqual([]);
    // Each list searches its own members.
    expect(await found(admin.cookie, "requests.q=whit", "Pending requests")).toEqual(["Whitby Asker"]);
    const html = await (await get("/dashboard?members.q=whit", admin.cookie)).text();
    expect(html).toContain("Showing 3 of 3 matching members");
    // Only separators: no one, rather than everyone.
    expect(await (await get("/dashboard?members.q=-", admin.cookie)).text()).toContain(
      "Showing 0 of 0 matching members",
    );
  });

  it("reads rows for the members it finds, not for every member of the organisation", async () => {
    const { admin, organizationId } = await createOrganisation({ adminName: "Rae Reader", name: uniqueName("Rows") });
    await seed(organizationId, [
      ...Array.from({ length: 600 }, (_, i) => `Member ${String(i).padStart(3, "0")}`),
      "Alice Whitfield",
      "Whitney Houston",
    ]);
    const rowsRead = async (query: string) =>
      Number((await get(`/dashboard?${query}`, admin.cookie)).headers.get("X-D1-Rows-Read"));
    const nobody = await rowsRead("members.q=zzz&requests.q=zzz");
    const two = await rowsRead("members.q=whit&requests.q=whit");
    // A substring test read every member's name twice per list (page and count): 2,400 rows.
    // Here: a few rows for each of the two members found, for the page and for the count.
    expect(two - nobody).toBeLessThanOrEqual(2 * 2 * 6);
    expect(nobody).toBeLessThan(600);
  });
});
