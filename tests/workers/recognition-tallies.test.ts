import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createOrganisationWithMember, giveAchievement, membershipOf, uniqueName } from "./factories.ts";
import { createAccount, get, postForm } from "./helpers.ts";
import { seedAchievements, seedMembers } from "./seed.ts";
import { credentialOf } from "./credentials-helpers.ts";

// Decision 037: the admin dashboard reads what triggers keep (recognition_days, the
// organisation's counts, each member's last recognition) instead of every achievement. These
// tests hold the kept figures to a recomputation from the rows themselves after every kind of
// change, the migration's backfill to the same, and the dashboard's D1 cost to a bound that does
// not grow with the achievements an organisation ever gave.

const DAY = 24 * 60 * 60 * 1000;

type Day = { day: number; givenBy: string; live: number; given: number };
type Organisation = { given: number; approved: number; pending: number };
type Member = { userId: string; last: number | null };

/** What the triggers keep, read as stored and as recomputed from achievements and memberships. */
async function tallies(organizationId: string) {
  const rows = async <T>(sql: string) => (await env.DB.prepare(sql).bind(organizationId).all<T>()).results;
  const stored = {
    days: await rows<Day>(
      "select day, given_by as givenBy, live, given from recognition_days where organization_id = ?1 order by day, given_by",
    ),
    organisation: await rows<Organisation>(
      "select achievements_given as given, approved_members as approved, pending_members as pending from organizations where id = ?1",
    ),
    members: await rows<Member>(
      "select user_id as userId, last_recognised_at as last from organization_members where organization_id = ?1 order by user_id",
    ),
  };
  const recomputed = {
    days: await rows<Day>(
      `select cast(created_at / 86400000 as integer) as day, coalesce(created_by, '') as givenBy,
         sum(status in ('pending', 'accepted')) as live, count(*) as given
       from achievements where organization_id = ?1 group by 1, 2 order by 1, 2`,
    ),
    organisation: await rows<Organisation>(
      `select (select count(*) from achievements where organization_id = ?1) as given,
         (select count(*) from organization_members where organization_id = ?1 and status = 'approved') as approved,
         (select count(*) from organization_members where organization_id = ?1 and status = 'pending') as pending`,
    ),
    members: await rows<Member>(
      `select m.user_id as userId, (select max(a.created_at) from achievements a where a.organization_id = m.organization_id
         and a.user_id = m.user_id and a.status in ('pending', 'accepted')) as last
       from organization_members m where m.organization_id = ?1 order by m.user_id`,
    ),
  };
  return { stored, recomputed };
}

async function expectExact(organizationId: string) {
  const { stored, recomputed } = await tallies(organizationId);
  expect(stored).toEqual(recomputed);
  return stored;
}

const answer = (cookie: string, intent: "accept" | "reject", achievementId: string) =>
  postForm("/passport", { intent, achievementId }, { cookie });

describe("the kept recognition figures", () => {
  it("stay equal to a recomputation after give, accept, reject, hide, revoke, remove, leave and rejoin", async () => {
    const { admin, member, organizationId } = await createOrganisationWithMember({
      adminName: "Ada Admin",
      memberName: "Mo Member",
      name: uniqueName("Tally"),
    });
    expect((await expectExact(organizationId)).organisation).toEqual([{ given: 0, approved: 2, pending: 0 }]);

    const kept = (await giveAchievement(admin.cookie, { userId: member.id, title: "Kept" })).achievementId!;
    const declined = (await giveAchievement(admin.cookie, { userId: member.id, title: "Declined" })).achievementId!;
    const after = await expectExact(organizationId);
    expect(after.organisation).toEqual([{ given: 2, approved: 2, pending: 0 }]);
    expect(after.days.reduce((sum, row) => sum + row.live, 0)).toBe(2);

    expect((await answer(member.cookie, "accept", kept)).status).toBe(302);
    await expectExact(organizationId);
    expect((await answer(member.cookie, "reject", declined)).status).toBe(302);
    const answered = await expectExact(organizationId);
    expect(answered.days.reduce((sum, row) => sum + row.live, 0)).toBe(1);

    await postForm(
      "/passport",
      { intent: "set-visibility", achievementId: kept, visible: "false" },
      { cookie: member.cookie },
    );
    await expectExact(organizationId);
    const revoked = await postForm(
      "/dashboard/achievements",
      { intent: "revoke", credentialId: await credentialOf(kept) },
      { cookie: admin.cookie },
    );
    expect(revoked.status).toBe(302);
    await expectExact(organizationId);

    // Removed, then back through a request the admin approves: the kept recognition returns.
    const membershipId = await membershipOf({ organizationId, userId: member.id });
    expect((await postForm("/dashboard", { intent: "remove", membershipId }, { cookie: admin.cookie })).status).toBe(
      302,
    );
    expect((await expectExact(organizationId)).organisation).toEqual([{ given: 2, approved: 1, pending: 0 }]);
    await postForm("/dashboard", { intent: "request-join", organizationId }, { cookie: member.cookie });
    expect((await expectExact(organizationId)).organisation).toEqual([{ given: 2, approved: 1, pending: 1 }]);
    const request = await membershipOf({ organizationId, userId: member.id });
    await postForm("/dashboard", { intent: "approve", membershipId: request }, { cookie: admin.cookie });
    const back = await expectExact(organizationId);
    expect(back.organisation).toEqual([{ given: 2, approved: 2, pending: 0 }]);
    expect(back.members.find((row) => row.userId === member.id)).toMatchObject({
      last: expect.any(Number),
    });

    // A member who leaves on their own.
    const other = await createAccount({ name: "Lee Leaver" });
    await postForm("/dashboard", { intent: "request-join", organizationId }, { cookie: other.cookie });
    await postForm(
      "/dashboard",
      { intent: "approve", membershipId: await membershipOf({ organizationId, userId: other.id }) },
      { cookie: admin.cookie },
    );
    await giveAchievement(admin.cookie, { userId: other.id, title: "Before leaving" });
    await postForm("/dashboard", { intent: "leave", organizationId }, { cookie: other.cookie });
    expect((await expectExact(organizationId)).organisation).toEqual([{ given: 3, approved: 2, pending: 0 }]);
  });

  it("stay exact when accounts are deleted: the recipient's achievements go, the giver's stay without a giver", async () => {
    const { admin, member, organizationId } = await createOrganisationWithMember({
      adminName: "Ada Admin",
      memberName: "Gone Soon",
      name: uniqueName("Tally"),
    });
    const second = await createAccount({ name: "Second Admin" });
    await seedAchievements([
      { userId: member.id, organizationId, createdBy: admin.id, title: "A", createdAt: Date.now() - 3 * DAY },
      { userId: member.id, organizationId, createdBy: second.id, title: "B", createdAt: Date.now() - 3 * DAY },
      { userId: admin.id, organizationId, createdBy: second.id, title: "C", createdAt: Date.now() - 2 * DAY },
    ]);
    await expectExact(organizationId);
    // The cascades of deleting an account (as the purge does): set null on the giver's, delete the recipient's.
    await env.DB.prepare("delete from users where id = ?").bind(second.id).run();
    const withoutGiver = await expectExact(organizationId);
    expect(withoutGiver.days.some((row) => row.givenBy === "")).toBe(true);
    await env.DB.prepare("delete from users where id = ?").bind(member.id).run();
    expect((await expectExact(organizationId)).organisation).toEqual([{ given: 1, approved: 1, pending: 0 }]);
  });

  it("are what the migration's backfill computes from existing rows", async () => {
    const { admin, member, organizationId } = await createOrganisationWithMember({
      adminName: "Ada Admin",
      memberName: "Bea Backfilled",
      name: uniqueName("Backfill"),
    });
    await seedMembers(organizationId, [
      { name: "Pat Pending", status: "pending", requestedAt: Date.now() - 5 * DAY },
      { name: "Al Approved", status: "approved", requestedAt: Date.now() - 500 * DAY },
    ]);
    await seedAchievements(
      Array.from({ length: 30 }, (_, i) => ({
        userId: member.id,
        organizationId,
        createdBy: admin.id,
        title: `Old ${i}`,
        status: i % 3 === 0 ? ("pending" as const) : ("accepted" as const),
        createdAt: Date.now() - i * 17 * DAY,
      })),
    );
    const kept = await expectExact(organizationId);

    // Forget everything the triggers kept, in every organisation, then run the migration's own
    // backfill statements (those that are not CREATE or ALTER).
    await env.DB.batch([
      env.DB.prepare("delete from recognition_days"),
      env.DB.prepare("update organizations set achievements_given = 0, approved_members = 0, pending_members = 0"),
      env.DB.prepare("update organization_members set last_recognised_at = null"),
    ]);
    expect((await tallies(organizationId)).stored.days).toEqual([]);
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0008_"));
    const backfill = migration!.queries.filter((query) => /^\s*(INSERT|UPDATE)\b/i.test(stripComments(query)));
    expect(backfill).toHaveLength(3);
    await env.DB.batch(backfill.map((query) => env.DB.prepare(query)));
    expect(await expectExact(organizationId)).toEqual(kept);
  });
});

const stripComments = (query: string) => query.replace(/^\s*--.*$/gm, "");

describe("the admin dashboard's D1 cost", () => {
  const costOf = (response: Response) => ({
    roundTrips: Number(response.headers.get("X-D1-Round-Trips")),
    rowsRead: Number(response.headers.get("X-D1-Rows-Read")),
  });
  /**
   * The dashboard route's loader alone (Remix's data request for that one route): the session
   * guard and the loader's own reads, without the signed-in layout's (the bell's) loader.
   */
  const dashboardData = async (cookie: string, query = "") => {
    const params = new URLSearchParams(query);
    params.set("_routes", "routes/_app.dashboard");
    const response = await get(`/dashboard.data?${params}`, cookie);
    expect(response.status).toBe(200);
    return costOf(response);
  };

  it("is one round trip beyond the session guard, and its rows read do not grow with the achievements ever given", async () => {
    const { admin, member, organizationId } = await createOrganisationWithMember({
      adminName: "Ada Admin",
      memberName: "Mo Member",
      name: uniqueName("Costly"),
    });
    await seedMembers(
      organizationId,
      Array.from({ length: 60 }, (_, i) => ({
        name: `Member ${i}`,
        status: "approved" as const,
        requestedAt: Date.now() - (i + 1) * DAY,
      })),
    );
    const dashboard = (query = "range=365") => dashboardData(admin.cookie, query);
    // The guard alone: the same route refusing an unknown intent right after it.
    const guard = costOf(await postForm("/dashboard", { intent: "unknown" }, { cookie: admin.cookie }));
    const before = await dashboard();
    expect(before.roundTrips - guard.roundTrips).toBe(1);

    // 2,000 achievements given three years ago (before every range the dashboard shows), over 100 days.
    const old = Date.now() - 3 * 365 * DAY;
    const given = (count: number, title: string, createdAt: (i: number) => number) =>
      seedAchievements(
        Array.from({ length: count }, (_, i) => ({
          userId: member.id,
          organizationId,
          createdBy: admin.id,
          title: `${title} ${i}`,
          createdAt: createdAt(i),
        })),
      );
    await given(2000, "Old", (i) => old + (i % 100) * DAY);
    await expectExact(organizationId);
    const afterOld = await dashboard();
    expect(afterOld.roundTrips - guard.roundTrips).toBe(1);
    // (At most the one row past each range's end that an index search steps on to stop.)
    expect(afterOld.rowsRead - before.rowsRead).toBeLessThanOrEqual(6);

    // 2,000 more in the last year, on 50 days: what is read grows with the days, not the achievements.
    await given(2000, "Recent", (i) => Date.now() - 70 * DAY - (i % 50) * DAY);
    const afterRecent = await dashboard();
    expect(afterRecent.roundTrips - guard.roundTrips).toBe(1);
    // One rollup row per day and giver, read by the four figures covering it (totals, series,
    // trend, recognisers), and once more by each of the three that group (D1 counts the sort).
    expect(afterRecent.rowsRead - afterOld.rowsRead).toBeLessThanOrEqual(8 * 50);

    // Team Members' next page and a member search cost the same one round trip.
    const page = await get("/dashboard", admin.cookie);
    const next = /href="[^"]*members\.after=([^"&]+)/.exec(await page.text())?.[1];
    expect(next).toBeTruthy();
    expect((await dashboard(`members.after=${next}`)).roundTrips - guard.roundTrips).toBe(1);
    expect((await dashboard("members.q=Member 1")).roundTrips - guard.roundTrips).toBe(1);
  });

  it("the personal dashboard and the directory search are one round trip beyond the guard", async () => {
    const person = await createAccount({ name: "Pia Person" });
    const guard = costOf(await postForm("/dashboard", { intent: "unknown" }, { cookie: person.cookie }));
    for (const query of ["", "q=Org"]) {
      expect((await dashboardData(person.cookie, query)).roundTrips - guard.roundTrips, query).toBe(1);
    }
  });
});
