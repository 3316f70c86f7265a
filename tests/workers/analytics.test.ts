import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDb } from "#db/client.ts";
import { loadRecognitionAnalytics } from "#db/queries/analytics.ts";
import { get } from "./helpers.ts";
import { createOrganisationWithMember, uniqueName } from "./factories.ts";

// Every figure on a seeded organisation with known dates. "Now" is fixed, days are UTC days.
const NOW = new Date("2025-06-15T12:00:00Z");
const DAY = 24 * 60 * 60 * 1000;
const at = (iso: string) => new Date(iso).getTime();
const daysBefore = (days: number) => NOW.getTime() - days * DAY;

async function person(name: string) {
  const id = crypto.randomUUID();
  await env.DB.batch([
    env.DB.prepare("insert into users (id, name, email, created_at, updated_at) values (?, ?, ?, 0, 0)").bind(
      id,
      name,
      `${id}@example.com`,
    ),
    env.DB.prepare(
      "insert into profiles (id, full_name, user_type, created_at, updated_at) values (?, ?, 'individual', 0, 0)",
    ).bind(id, name),
  ]);
  return id;
}

async function organisation() {
  const id = crypto.randomUUID();
  await env.DB.prepare("insert into organizations (id, name, created_at) values (?, ?, 0)")
    .bind(id, `Org ${id.slice(0, 4)}`)
    .run();
  return id;
}

async function member(organizationId: string, userId: string, approvedAt: number, status = "approved") {
  await env.DB.prepare(
    "insert into organization_members (id, user_id, organization_id, status, requested_at, approved_at) values (?, ?, ?, ?, ?, ?)",
  )
    .bind(crypto.randomUUID(), userId, organizationId, status, approvedAt, status === "approved" ? approvedAt : null)
    .run();
}

async function give(
  organizationId: string | null,
  userId: string,
  createdBy: string,
  createdAt: number,
  status = "pending",
) {
  await env.DB.prepare(
    "insert into achievements (id, user_id, organization_id, created_by, title, date, status, created_at) values (?, ?, ?, ?, 'Star', '2025-01-01', ?, ?)",
  )
    .bind(crypto.randomUUID(), userId, organizationId, createdBy, status, createdAt)
    .run();
}

const analytics = (organizationId: string, range: 7 | 30 | 90 | 365) =>
  loadRecognitionAnalytics(createDb(env.DB), organizationId, range, NOW);

describe("recognition over a range", () => {
  it("counts pending and accepted achievements from [start of the first day, end of today), against the previous period", async () => {
    const org = await organisation();
    const other = await organisation();
    const admin = await person("Ada Admin");
    const alex = await person("Alex");
    await member(org, alex, at("2024-01-01T00:00:00Z"));
    // Last 30 days: 17 May 00:00 to 15 June 23:59:59.999 (UTC).
    await give(org, alex, admin, at("2025-05-17T00:00:00.000Z")); // first moment: in
    await give(org, alex, admin, at("2025-06-15T23:59:59.999Z"), "accepted"); // last moment: in
    await give(org, alex, admin, at("2025-06-01T10:00:00Z"), "accepted");
    await give(org, alex, admin, at("2025-06-01T11:00:00Z"), "rejected"); // declined: not counted
    await give(other, alex, admin, at("2025-06-02T10:00:00Z")); // another organisation's
    await give(null, alex, alex, at("2025-06-03T10:00:00Z"), "accepted"); // a self achievement
    await give(org, alex, admin, at("2025-05-16T23:59:59.999Z")); // previous period, last moment
    await give(org, alex, admin, at("2025-04-17T00:00:00Z")); // previous period, first moment
    await give(org, alex, admin, at("2025-04-16T23:59:59.999Z")); // before both

    const month = await analytics(org, 30);
    expect(month.total).toBe(3);
    expect(month.previousTotal).toBe(2);
    expect(month.bucket).toBe("day");
    expect(month.series).toHaveLength(30);
    expect(month.series[0]).toEqual({ start: at("2025-05-17T00:00:00Z"), count: 1 });
    expect(month.series[15]).toEqual({ start: at("2025-06-01T00:00:00Z"), count: 1 });
    expect(month.series[29]).toEqual({ start: at("2025-06-15T00:00:00Z"), count: 1 });
    expect(month.series.reduce((sum, bar) => sum + bar.count, 0)).toBe(3);

    const week = await analytics(org, 7);
    expect(week.series.map((bar) => bar.count)).toEqual([0, 0, 0, 0, 0, 0, 1]);
    expect(week.total).toBe(1);
    expect(week.previousTotal).toBe(0);
  });

  it("buckets 90 days by week and 365 days by calendar month", async () => {
    const org = await organisation();
    const admin = await person("Ada Admin");
    const alex = await person("Alex");
    await member(org, alex, at("2024-01-01T00:00:00Z"));
    // 90 days start on 18 March; weeks run 18–24 March, 25–31 March, ...
    await give(org, alex, admin, at("2025-03-18T00:00:00Z"));
    await give(org, alex, admin, at("2025-03-24T23:59:59Z"));
    await give(org, alex, admin, at("2025-03-25T00:00:00Z"));
    await give(org, alex, admin, at("2025-06-15T08:00:00Z"));
    await give(org, alex, admin, at("2024-06-16T00:00:00Z")); // first day of the 365-day range
    await give(org, alex, admin, at("2024-06-15T23:00:00Z")); // the day before it

    const quarter = await analytics(org, 90);
    expect(quarter.bucket).toBe("week");
    expect(quarter.series).toHaveLength(13);
    expect(quarter.series[0]).toEqual({ start: at("2025-03-18T00:00:00Z"), count: 2 });
    expect(quarter.series[1]!.count).toBe(1);
    expect(quarter.series[12]).toEqual({ start: at("2025-06-10T00:00:00Z"), count: 1 });
    expect(quarter.total).toBe(4);

    const year = await analytics(org, 365);
    expect(year.bucket).toBe("month");
    // June 2024 (from the 16th) to June 2025: thirteen calendar months.
    expect(year.series).toHaveLength(13);
    expect(year.series[0]).toEqual({ start: at("2024-06-16T00:00:00Z"), count: 1 });
    expect(year.series[9]).toEqual({ start: at("2025-03-01T00:00:00Z"), count: 3 });
    expect(year.series[12]).toEqual({ start: at("2025-06-01T00:00:00Z"), count: 1 });
    expect(year.total).toBe(5);
    expect(year.previousTotal).toBe(1);
  });
});

describe("needs recognition", () => {
  it("lists approved members unrecognised for 60 days or more, never-recognised ones from approval, longest first", async () => {
    const org = await organisation();
    const admin = await person("Ada Admin");
    const sixty = await person("Sixty Days");
    const fiftyNine = await person("Fifty-Nine Days");
    const never = await person("Never Recognised");
    const newcomer = await person("New Starter");
    const longAgo = await person("Long Ago");
    const declinedOnly = await person("Declined Only");
    const pending = await person("Pending Person");
    await member(org, sixty, daysBefore(400));
    await member(org, fiftyNine, daysBefore(400));
    await member(org, never, daysBefore(70));
    await member(org, newcomer, daysBefore(10));
    await member(org, longAgo, daysBefore(400));
    await member(org, declinedOnly, daysBefore(65));
    await member(org, pending, daysBefore(300), "pending");
    await give(org, sixty, admin, daysBefore(60));
    await give(org, sixty, admin, daysBefore(200), "accepted");
    await give(org, fiftyNine, admin, daysBefore(59));
    await give(org, longAgo, admin, daysBefore(300), "accepted");
    await give(org, declinedOnly, admin, daysBefore(5), "rejected");
    // Recognition from another organisation does not count here.
    await give(await organisation(), longAgo, admin, daysBefore(1));

    const { needsRecognition } = await analytics(org, 30);
    expect(needsRecognition.members).toEqual([
      { userId: longAgo, fullName: "Long Ago", neverRecognised: false, days: 300 },
      { userId: never, fullName: "Never Recognised", neverRecognised: true, days: 70 },
      { userId: declinedOnly, fullName: "Declined Only", neverRecognised: true, days: 65 },
      { userId: sixty, fullName: "Sixty Days", neverRecognised: false, days: 60 },
    ]);
    expect(needsRecognition.total).toBe(4);
  });

  it("lists at most 6 and counts the rest for '+ N more'", async () => {
    const org = await organisation();
    for (let index = 0; index < 9; index++) await member(org, await person(`Member ${index}`), daysBefore(100 + index));
    const { needsRecognition } = await analytics(org, 30);
    expect(needsRecognition.members.map((row) => row.fullName)).toEqual([
      "Member 8",
      "Member 7",
      "Member 6",
      "Member 5",
      "Member 4",
      "Member 3",
    ]);
    expect(needsRecognition.total).toBe(9);
  });
});

describe("the 6-month trend", () => {
  it("has a bar for each of the last 6 calendar months, zero months included", async () => {
    const org = await organisation();
    const admin = await person("Ada Admin");
    const alex = await person("Alex");
    await member(org, alex, at("2024-01-01T00:00:00Z"));
    await give(org, alex, admin, at("2024-12-31T23:59:59Z")); // before January: out
    await give(org, alex, admin, at("2025-01-01T00:00:00Z"));
    await give(org, alex, admin, at("2025-01-20T00:00:00Z"), "accepted");
    await give(org, alex, admin, at("2025-04-30T23:59:59Z"));
    await give(org, alex, admin, at("2025-06-15T11:00:00Z"));

    const { trend } = await analytics(org, 7);
    expect(trend).toEqual([
      { start: at("2025-01-01T00:00:00Z"), count: 2 },
      { start: at("2025-02-01T00:00:00Z"), count: 0 },
      { start: at("2025-03-01T00:00:00Z"), count: 0 },
      { start: at("2025-04-01T00:00:00Z"), count: 1 },
      { start: at("2025-05-01T00:00:00Z"), count: 0 },
      { start: at("2025-06-01T00:00:00Z"), count: 1 },
    ]);
  });
});

describe("top recognisers", () => {
  it("are the top 5 by achievements given in the range, ties in name order", async () => {
    const org = await organisation();
    const alex = await person("Alex");
    await member(org, alex, at("2024-01-01T00:00:00Z"));
    const counts: [string, number][] = [
      ["Zed", 4],
      ["Bea", 2],
      ["Cal", 3],
      ["abe", 3],
      ["Dee", 1],
      ["Eve", 2],
    ];
    for (const [name, count] of counts) {
      const admin = await person(name);
      for (let index = 0; index < count; index++) await give(org, alex, admin, daysBefore(index + 1));
    }
    // Outside the range, or declined: not counted.
    const old = await person("Old Timer");
    for (let index = 0; index < 9; index++) await give(org, alex, old, daysBefore(40));
    const decliner = await person("Declined Giver");
    for (let index = 0; index < 9; index++) await give(org, alex, decliner, daysBefore(2), "rejected");

    const { topRecognisers } = await analytics(org, 30);
    expect(topRecognisers.map((row) => [row.fullName, row.count])).toEqual([
      ["Zed", 4],
      ["abe", 3],
      ["Cal", 3],
      ["Bea", 2],
      ["Eve", 2],
    ]);
    expect((await analytics(org, 90)).topRecognisers[0]).toMatchObject({ fullName: "Old Timer", count: 9 });
  });
});

describe("the analytics panel on the dashboard", () => {
  it("shows an admin the figures for the range in the URL; an unknown range falls back to 30 days", async () => {
    const { admin, member, organizationId } = await createOrganisationWithMember({
      adminName: "Ada Admin",
      memberName: "Mo Member",
      name: uniqueName("Counters"),
    });
    await give(organizationId, member.id, admin.id, Date.now() - 20 * DAY);

    const week = await (await get("/dashboard?range=7", admin.cookie)).text();
    expect(week).toContain("Achievements given in the last 7 days");
    expect(week).toMatch(/Achievements given in the last 7 days: <\/span>0</);
    const month = await (await get("/dashboard?range=30", admin.cookie)).text();
    expect(month).toMatch(/Achievements given in the last 30 days: <\/span>1</);
    expect(month).toContain('role="img"');
    expect(await (await get("/dashboard?range=12", admin.cookie)).text()).toMatch(
      /Achievements given in the last 30 days: <\/span>1</,
    );
  });

  it("is not shown to a member who is not an admin of the organisation", async () => {
    const { member } = await createOrganisationWithMember({
      adminName: "Ada Admin",
      memberName: "Mo Member",
      name: uniqueName("Private"),
    });
    const html = await (await get("/dashboard?range=7", member.cookie)).text();
    expect(html).not.toContain("Needs recognition");
    expect(html).not.toContain("Top recognisers");
  });
});
