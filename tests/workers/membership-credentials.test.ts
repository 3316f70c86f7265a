import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "#workers/test-app.ts";
import { FREQUENT_CRON } from "#workers/scheduled.ts";
import { signDueMembershipEntries } from "#app/services/membership-entries.server.ts";
import { loadRecognitionAnalytics } from "#db/queries/analytics.ts";
import { createDb } from "#db/client.ts";
import { createAccount, get, joinByInviteLink, pageText, postForm } from "./helpers.ts";
import { addMember, createOrganisation, membershipOf, uniqueName } from "./factories.ts";
import { credentialJson, dccVerify, giveAndAccept, verified } from "./credentials-helpers.ts";
import { today } from "#tests/today.ts";
import { formatLongDate } from "#app/utils/dates.ts";
import { anniversaryText, latestAnniversary } from "#app/utils/membership-entry.ts";

type Entry = {
  id: string;
  title: string;
  date: string;
  ended: string | null;
  type: string;
  visible: number;
  due: number;
  org: string | null;
  credentialId: string | null;
};

/** The person's membership entries, oldest first, with each one's current credential. */
async function entriesOf(userId: string) {
  const { results } = await env.DB.prepare(
    `select a.id, a.title, a.date, a.membership_ended_on as ended, a.type, a.is_visible as visible,
       a.membership_sign_due as due, a.organization_id as org,
       (select c.id from credentials c where c.achievement_id = a.id) as credentialId
     from achievements a where a.user_id = ? and a.membership_organization_id is not null
     order by a.created_at, a.id`,
  )
    .bind(userId)
    .all<Entry>();
  return results;
}

async function onlyEntry(userId: string) {
  const entries = await entriesOf(userId);
  expect(entries).toHaveLength(1);
  return entries[0]!;
}

const credentialRow = (id: string) =>
  env.DB.prepare(
    "select achievement_id as achievementId, superseded_by as supersededBy, revoked_at as revokedAt from credentials where id = ?",
  )
    .bind(id)
    .first<{ achievementId: string | null; supersededBy: string | null; revokedAt: number | null }>();

const longToday = () => formatLongDate(today());

/** The ended entry's credential: dated, naming the one it replaced, which stays valid but superseded. */
async function expectReplaced(entry: Entry, firstId: string) {
  expect(entry.credentialId).toBeTruthy();
  expect(entry.credentialId).not.toBe(firstId);
  const [first, dated] = [await credentialJson(firstId), await credentialJson(entry.credentialId!)];
  expect(dated.validUntil).toBeUndefined();
  expect(dated.validFrom).toBe(first.validFrom);
  expect(dated.credentialSubject.activityEndDate).toBe(`${entry.ended}T00:00:00Z`);
  expect(dated.credentialSubject.achievement).toMatchObject({
    id: first.credentialSubject.achievement.id,
    achievementType: "Membership",
    related: [{ id: first.id, type: ["Related"], version: "1" }],
    version: "2",
  });
  expect(await credentialRow(firstId)).toEqual({
    achievementId: null,
    supersededBy: entry.credentialId,
    revokedAt: null,
  });
  expect(await dccVerify(first)).toMatchObject(verified);
  expect(await dccVerify(dated)).toMatchObject(verified);
  // Each credential's page links the other: the older says it was replaced, not revoked.
  const [olderPage, newerPage] = [
    await (await get(`/credentials/${firstId}`)).text(),
    await (await get(`/credentials/${entry.credentialId}`)).text(),
  ];
  expect(olderPage).toContain(`href="/credentials/${entry.credentialId}"`);
  expect(await pageText(`/credentials/${firstId}`)).toContain(
    "Replaced A newer version replaces this credential. It was not revoked",
  );
  expect(newerPage).toContain(`href="/credentials/${firstId}"`);
  expect(await pageText(`/credentials/${entry.credentialId}`)).toContain(
    "Replaces An earlier version of this credential.",
  );
}

describe("a membership becomes a credential", () => {
  it("joining by the invite link gives a 'Member of' milestone from the approval date, with a verified Membership credential", async () => {
    const { organizationId, organizationName } = await createOrganisation({ name: uniqueName("Joiners") });
    const member = await addMember(organizationId, { name: "Jo Joiner" });
    const entry = await onlyEntry(member.id);
    expect(entry).toMatchObject({
      title: `Member of ${organizationName}`,
      date: today(),
      ended: null,
      type: "milestone",
      visible: 1,
      due: 0,
      org: null,
    });
    const credential = await credentialJson(entry.credentialId!);
    const approvedAt = await env.DB.prepare(
      "select approved_at as at from organization_members where user_id = ? and organization_id = ?",
    )
      .bind(member.id, organizationId)
      .first<{ at: number }>();
    expect(credential.validFrom).toBe(new Date(approvedAt!.at).toISOString().replace(/\.\d{3}Z$/, "Z"));
    expect(credential.validUntil).toBeUndefined();
    expect(credential.issuer).toMatchObject({ id: `did:web:localhost:orgs:${organizationId}`, name: organizationName });
    expect(credential.credentialSubject.role).toBeUndefined();
    expect(credential.credentialSubject.achievement).toMatchObject({
      achievementType: "Membership",
      name: `Member of ${organizationName}`,
    });
    expect(JSON.stringify(credential)).not.toContain(member.email);
    expect(await dccVerify(credential)).toMatchObject(verified);

    const passport = await pageText(`/passport/${member.id}`);
    expect(passport).toContain(`Membership ${longToday()}`);
    expect(passport).toContain(`Member of ${organizationName}`);
    // Joining again changes nothing.
    await joinByInviteLink(organizationId, member.cookie);
    expect(await entriesOf(member.id)).toHaveLength(1);
  });

  it("an admin's approval issues it, naming the role of a member who is an admin", async () => {
    const { admin, organizationId } = await createOrganisation({ name: uniqueName("Approvers") });
    const person = await createAccount({ name: "Ria Requester" });
    await postForm("/dashboard", { intent: "request-join", organizationId }, { cookie: person.cookie });
    expect(await entriesOf(person.id)).toEqual([]);
    // An admin role given before the approval (as a founder's): the credential says so.
    await env.DB.prepare(
      "insert into organization_roles (id, user_id, organization_id, role, created_at) values (?, ?, ?, 'admin', 0)",
    )
      .bind(crypto.randomUUID(), person.id, organizationId)
      .run();
    const membershipId = await membershipOf({ organizationId, userId: person.id });
    for (let press = 0; press < 2; press++) {
      const approved = await postForm("/dashboard", { intent: "approve", membershipId }, { cookie: admin.cookie });
      expect(approved.status).toBe(302);
    }
    const entry = await onlyEntry(person.id);
    const credential = await credentialJson(entry.credentialId!);
    expect(credential.credentialSubject.role).toBe("admin");
    expect(await dccVerify(credential)).toMatchObject(verified);
  });

  it("leaving dates the entry and replaces its credential with a dated one; both verify", async () => {
    const { organizationId, organizationName } = await createOrganisation({ name: uniqueName("Leavers") });
    const member = await addMember(organizationId);
    const first = (await onlyEntry(member.id)).credentialId!;
    const left = await postForm("/dashboard", { intent: "leave", organizationId }, { cookie: member.cookie });
    expect(left.status).toBe(302);
    const entry = await onlyEntry(member.id);
    expect(entry).toMatchObject({ ended: today(), due: 0 });
    await expectReplaced(entry, first);
    expect(await pageText(`/passport/${member.id}`)).toContain(
      `Member of ${organizationName}, ${longToday()} – ${longToday()}`,
    );
    // Joining again starts a new entry; the old one stays as it was.
    await joinByInviteLink(organizationId, member.cookie);
    const [old, renewed] = await entriesOf(member.id);
    expect(old).toEqual(entry);
    expect(renewed).toMatchObject({ ended: null, title: `Member of ${organizationName}` });
    // resume.json: both periods as work, never as awards.
    const resume = (await (await get("/settings/resume.json", member.cookie)).json()) as Record<string, unknown[]>;
    expect(resume.work).toEqual([
      { name: organizationName, startDate: today() },
      { name: organizationName, startDate: today(), endDate: today() },
    ]);
    expect(resume.awards).toEqual([]);
  });

  it("removal by an admin does the same", async () => {
    const { admin, organizationId } = await createOrganisation({ name: uniqueName("Removers") });
    const member = await addMember(organizationId);
    const first = (await onlyEntry(member.id)).credentialId!;
    const removed = await postForm(
      "/dashboard",
      { intent: "remove", membershipId: member.membershipId },
      { cookie: admin.cookie },
    );
    expect(removed.status).toBe(302);
    const entry = await onlyEntry(member.id);
    expect(entry.ended).toBe(today());
    await expectReplaced(entry, first);
  });

  it("deleting the organisation ends every entry at once; the cron signs the dated credentials in bounded runs", async () => {
    const { organizationId, organizationName } = await createOrganisation({ name: uniqueName("Closing") });
    const members = [await addMember(organizationId), await addMember(organizationId), await addMember(organizationId)];
    const firsts = await Promise.all(members.map(async (member) => (await onlyEntry(member.id)).credentialId!));
    await env.DB.prepare("delete from organizations where id = ?").bind(organizationId).run();
    for (const member of members) expect(await onlyEntry(member.id)).toMatchObject({ ended: today(), due: 1 });
    // The entry reads as ended before its credential is signed.
    expect(await pageText(`/passport/${members[0]!.id}`)).toContain(
      `Member of ${organizationName}, ${longToday()} – ${longToday()}`,
    );

    // Bounded: a run signs at most its share, and says more is due.
    const stores = { db: createDb(env.DB), env: env as never };
    const due = async () =>
      (await env.DB.prepare("select count(*) as n from achievements where membership_sign_due = 1").first<{
        n: number;
      }>())!.n;
    const before = await due();
    expect(await signDueMembershipEntries(stores, 2)).toMatchObject({ signed: 2, failed: 0, more: true });
    expect(await due()).toBe(before - 2);
    // The frequent cron signs the rest.
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: FREQUENT_CRON }), env, ctx);
    await waitOnExecutionContext(ctx);
    for (const [index, member] of members.entries()) {
      const entry = await onlyEntry(member.id);
      expect(entry.due).toBe(0);
      await expectReplaced(entry, firsts[index]!);
      expect((await credentialJson(entry.credentialId!)).issuer.name).toBe(organizationName);
    }
  });

  it("archiving the account, which drops its memberships, ends its entries too", async () => {
    const { organizationId } = await createOrganisation({ name: uniqueName("Archivers") });
    const member = await addMember(organizationId);
    const first = (await onlyEntry(member.id)).credentialId!;
    expect((await postForm("/settings/danger", { intent: "archive" }, { cookie: member.cookie })).status).toBe(302);
    const entry = await onlyEntry(member.id);
    expect(entry.ended).toBe(today());
    await expectReplaced(entry, first);
  });

  it("an organisation that turns membership credentials off gives no entry; only its admin may turn it off", async () => {
    const { admin, organizationId } = await createOrganisation({ name: uniqueName("Quiet") });
    const kept = await addMember(organizationId);
    const outsider = await createAccount();
    const refused = await postForm(
      "/dashboard/organization",
      { intent: "set-membership-credentials" },
      { cookie: kept.cookie },
    );
    expect(refused.status).not.toBe(302);
    const off = await postForm(
      "/dashboard/organization",
      { intent: "set-membership-credentials" },
      { cookie: admin.cookie },
    );
    expect(off.status).toBe(302);
    expect(await pageText("/dashboard/organization", admin.cookie)).toContain("Membership credentials");
    await joinByInviteLink(organizationId, outsider.cookie);
    expect(await entriesOf(outsider.id)).toEqual([]);
    // Entries already given stay, and still end dated.
    await postForm("/dashboard", { intent: "leave", organizationId }, { cookie: kept.cookie });
    expect((await onlyEntry(kept.id)).ended).toBe(today());

    const on = await postForm(
      "/dashboard/organization",
      { intent: "set-membership-credentials", membershipCredentials: "on" },
      { cookie: admin.cookie },
    );
    expect(on.status).toBe(302);
    const late = await addMember(organizationId);
    expect(await entriesOf(late.id)).toHaveLength(1);
  });

  it("the member hides the entry like any other: off the public passport, still on their own", async () => {
    const { organizationId, organizationName } = await createOrganisation({ name: uniqueName("Hidden") });
    const member = await addMember(organizationId);
    const entry = await onlyEntry(member.id);
    await postForm(
      "/passport",
      { intent: "set-visibility", achievementId: entry.id, visible: "false" },
      { cookie: member.cookie },
    );
    expect(await pageText(`/passport/${member.id}`)).not.toContain(`Member of ${organizationName}`);
    expect(await pageText("/passport", member.cookie)).toContain(`Member of ${organizationName}`);
  });

  it("is not recognition: the organisation's Achievements count, its analytics and the personal dashboard's figures leave it out", async () => {
    const { admin, organizationId } = await createOrganisation({ name: uniqueName("Counting") });
    const member = await addMember(organizationId);
    expect(await entriesOf(member.id)).toHaveLength(1);
    const stat = (text: string, label: string) => new RegExp(`${label} (\\d+)`).exec(text)?.[1];

    expect(stat(await pageText("/dashboard", admin.cookie), "Achievements")).toBe("0");
    // Nor in the given-achievements list, nor the rollup the analytics and 'Needs recognition' read.
    expect(await pageText("/dashboard/achievements", admin.cookie)).not.toContain("Member of");
    const tallies = await env.DB.prepare(
      `select (select count(*) from recognition_days where organization_id = ?1) as days,
         (select last_recognised_at from organization_members where organization_id = ?1 and user_id = ?2) as last`,
    )
      .bind(organizationId, member.id)
      .first();
    expect(tallies).toEqual({ days: 0, last: null });
    const analytics = await loadRecognitionAnalytics(createDb(env.DB), organizationId, 30);
    expect(JSON.stringify(analytics)).not.toMatch(/"(given|live|total|current)":[1-9]/);
    expect(await pageText("/passport", member.cookie)).toContain("Member of");
    const dashboard = await pageText("/dashboard", member.cookie);
    expect(stat(dashboard, "Total Achievements")).toBe("0");
    expect(stat(dashboard, "Companies")).toBe("0");
    expect(dashboard).not.toContain("Member of");

    // A real recognition still counts, once.
    await giveAndAccept(admin.cookie, member.cookie, member.id, "Star of the Month");
    expect(stat(await pageText("/dashboard", admin.cookie), "Achievements")).toBe("1");
    expect(stat(await pageText("/dashboard", member.cookie), "Total Achievements")).toBe("1");
  });
});

describe("anniversaries shown on the entry (not credentials)", () => {
  it.each([
    { from: "2025-03-01", ended: null, today: "2026-02-28", expected: null },
    { from: "2025-03-01", ended: null, today: "2026-03-01", expected: { years: 1, on: "2026-03-01" } },
    { from: "2020-03-01", ended: null, today: "2024-12-31", expected: { years: 1, on: "2021-03-01" } },
    { from: "2020-03-01", ended: null, today: "2025-03-01", expected: { years: 5, on: "2025-03-01" } },
    { from: "2010-06-15", ended: null, today: "2026-01-01", expected: { years: 15, on: "2025-06-15" } },
    // Counted up to the end of the membership, not to today.
    { from: "2010-06-15", ended: "2019-01-01", today: "2026-01-01", expected: { years: 5, on: "2015-06-15" } },
    // A 29 February start falls on 28 February in other years.
    { from: "2024-02-29", ended: null, today: "2025-02-28", expected: { years: 1, on: "2025-02-28" } },
  ])("from $from, ended $ended, on $today: $expected", ({ from, ended, today: on, expected }) => {
    expect(latestAnniversary(from, ended, on)).toEqual(expected);
  });

  it("reads as the card shows it", () => {
    expect(anniversaryText({ years: 5, on: "2025-03-01" })).toBe("5-year anniversary, 1 March 2025");
  });
});
