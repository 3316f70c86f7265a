import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { latestTodayAnywhere } from "#app/utils/achievement-schemas.ts";
import { countRows, createAccount, get, postForm } from "./helpers.ts";
import { addSelfAchievement, createOrganisationWithMember, uniqueName } from "./factories.ts";
import { today } from "#tests/today.ts";

const organisationWithMember = () =>
  createOrganisationWithMember({ adminName: "Gia Giver", memberName: "Rex Recipient", name: uniqueName("Givers") });

const give = (cookie: string, fields: Record<string, string>) =>
  postForm(
    "/dashboard",
    { intent: "give-achievement", formId: "give", type: "award", date: today(), title: "Star of the Month", ...fields },
    { cookie },
  );

const achievementsOf = (userId: string) =>
  env.DB.prepare(
    // Recognitions only: a member's 'Member of …' entry (decision 070) is not one.
    "select id, title, status, is_visible as visible, organization_id as org, created_by as creator from achievements where user_id = ? and membership_organization_id is null order by created_at",
  )
    .bind(userId)
    .all<{
      id: string;
      title: string;
      status: string;
      visible: number;
      org: string | null;
      creator: string;
    }>()
    .then((result) => result.results);

describe("an achievement's date", () => {
  it("may not be later than today in the person's own time zone, sent by the browser", async () => {
    const { admin, member } = await organisationWithMember();
    // UTC+14's date is always later than today in Pago Pago (UTC-11).
    const tomorrowThere = latestTodayAnywhere();
    const refused = await give(admin.cookie, { userId: member.id, date: tomorrowThere, timeZone: "Pacific/Pago_Pago" });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Date cannot be in the future");
    expect(await achievementsOf(member.id)).toEqual([]);
    // Kiribati's today is the latest on Earth: accepted there.
    const accepted = await give(admin.cookie, {
      userId: member.id,
      date: tomorrowThere,
      timeZone: "Pacific/Kiritimati",
    });
    expect(accepted.status).toBe(302);
  });

  it("without JavaScript (no zone sent) may be the latest date anywhere on Earth, never later", async () => {
    const { admin, member } = await organisationWithMember();
    expect((await give(admin.cookie, { userId: member.id, date: latestTodayAnywhere() })).status).toBe(302);
    const later = new Date(Date.parse(latestTodayAnywhere()) + 86_400_000).toISOString().slice(0, 10);
    expect((await give(admin.cookie, { userId: member.id, date: later, title: "Later" })).status).toBe(400);
  });
});

describe("giving an achievement", () => {
  it("an admin gives one to an approved member: pending, visible, and the member is told", async () => {
    const { admin, member, organizationId } = await organisationWithMember();
    const response = await give(admin.cookie, { userId: member.id, description: "  For the rota rescue.  " });
    expect(response.status).toBe(302);
    expect(await achievementsOf(member.id)).toEqual([
      expect.objectContaining({
        title: "Star of the Month",
        status: "pending",
        visible: 1,
        org: organizationId,
        creator: admin.id,
      }),
    ]);
    expect(
      await countRows(
        "select count(*) as n from notifications where user_id = ? and title = 'New achievement'",
        member.id,
      ),
    ).toBe(1);
  });

  const cases: [string, Record<string, string>, string][] = [
    ["a blank title", { title: "  " }, "Title is required"],
    ["a title over 200 characters", { title: "t".repeat(201) }, "Title must be less than 200 characters"],
    [
      "a description over 1000 characters",
      { description: "d".repeat(1001) },
      "Description must be less than 1000 characters",
    ],
    ["no date", { date: "" }, "Date is required"],
    ["a date in the future", { date: "2999-01-01" }, "Date cannot be in the future"],
    ["no person", { userId: "" }, "Please select a person"],
    ["an unknown type", { type: "medal" }, "Please select a type"],
  ];
  it.each(cases)("refuses %s with the spec's message", async (_, override, message) => {
    const { admin, member } = await organisationWithMember();
    const response = await give(admin.cookie, { userId: member.id, ...override });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(message);
    expect(await achievementsOf(member.id)).toEqual([]);
  });

  it("refuses a member, an outsider and a pending requester as recipients or givers", async () => {
    const { admin, member, organizationId } = await organisationWithMember();
    // A plain member cannot give.
    expect((await give(member.cookie, { userId: member.id })).status).toBe(403);
    // Nobody outside the organisation, nor a pending requester, can receive.
    const outsider = await createAccount();
    await give(admin.cookie, { userId: outsider.id });
    const requester = await createAccount();
    await postForm("/dashboard", { intent: "request-join", organizationId }, { cookie: requester.cookie });
    await give(admin.cookie, { userId: requester.id });
    // An admin of another organisation cannot give to this one's member.
    const otherAdmin = await createAccount({ organizationName: "Elsewhere" });
    await give(otherAdmin.cookie, { userId: member.id });
    expect(await countRows("select count(*) as n from achievements where membership_organization_id is null")).toBe(0);
  });
});

describe("answering and showing", () => {
  it("only the recipient accepts; accepting twice changes nothing; the giver is told once", async () => {
    const { admin, member } = await organisationWithMember();
    await give(admin.cookie, { userId: member.id });
    const [achievement] = await achievementsOf(member.id);

    expect(
      (await postForm("/passport", { intent: "accept", achievementId: achievement!.id }, { cookie: admin.cookie }))
        .status,
    ).toBe(403);
    expect((await achievementsOf(member.id))[0]!.status).toBe("pending");

    await postForm("/passport", { intent: "accept", achievementId: achievement!.id }, { cookie: member.cookie });
    await postForm("/passport", { intent: "accept", achievementId: achievement!.id }, { cookie: member.cookie });
    expect((await achievementsOf(member.id))[0]!.status).toBe("accepted");
    expect(
      await countRows(
        "select count(*) as n from notifications where user_id = ? and title = 'Achievement accepted'",
        admin.id,
      ),
    ).toBe(1);
    expect(await (await get(`/passport/${member.id}`)).text()).toContain("Star of the Month");
  });

  it("a rejected achievement is kept but never shown", async () => {
    const { admin, member } = await organisationWithMember();
    await give(admin.cookie, { userId: member.id, title: "Declined Thing" });
    const [achievement] = await achievementsOf(member.id);
    await postForm("/passport", { intent: "reject", achievementId: achievement!.id }, { cookie: member.cookie });
    expect((await achievementsOf(member.id))[0]!.status).toBe("rejected");
    expect(await (await get(`/passport/${member.id}`)).text()).not.toContain("Declined Thing");
  });

  it("the owner hides and shows an accepted achievement; nobody else can", async () => {
    const { admin, member } = await organisationWithMember();
    await give(admin.cookie, { userId: member.id, title: "Shy Award" });
    const [achievement] = await achievementsOf(member.id);
    await postForm("/passport", { intent: "accept", achievementId: achievement!.id }, { cookie: member.cookie });

    expect(
      (
        await postForm(
          "/passport",
          { intent: "set-visibility", achievementId: achievement!.id, visible: "false" },
          { cookie: admin.cookie },
        )
      ).status,
    ).toBe(403);
    await postForm(
      "/passport",
      { intent: "set-visibility", achievementId: achievement!.id, visible: "false" },
      { cookie: member.cookie },
    );
    expect(await (await get(`/passport/${member.id}`)).text()).not.toContain("Shy Award");
    await postForm(
      "/passport",
      { intent: "set-visibility", achievementId: achievement!.id, visible: "true" },
      { cookie: member.cookie },
    );
    expect(await (await get(`/passport/${member.id}`)).text()).toContain("Shy Award");
  });
});

describe("self achievements", () => {
  it("are stored as 'title - company', with no organisation, accepted and visible", async () => {
    const person = await createAccount();
    const response = await addSelfAchievement(person.cookie, {
      title: "Marathon",
      company: "City Runners",
      date: "2024-04-21",
      type: "milestone",
    });
    expect(response.status).toBe(302);
    expect(await achievementsOf(person.id)).toEqual([
      expect.objectContaining({
        title: "Marathon - City Runners",
        status: "accepted",
        visible: 1,
        org: null,
        creator: person.id,
      }),
    ]);
    expect(await (await get(`/passport/${person.id}`)).text()).toContain("Self Achievement");
  });

  it("need a company", async () => {
    const person = await createAccount();
    const response = await addSelfAchievement(person.cookie, {
      title: "Marathon",
      company: " ",
      date: "2024-04-21",
      type: "milestone",
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Company/Organization is required");
  });
});

describe("the public passport", () => {
  it("carries no e-mail and no pending, rejected or hidden achievement", async () => {
    const { admin, member } = await organisationWithMember();
    await give(admin.cookie, { userId: member.id, title: "Still Pending" });
    const html = await (await get(`/passport/${member.id}`)).text();
    expect(html).not.toContain(member.email);
    expect(html).not.toContain("Still Pending");
  });
});

describe("the free achievement limit", () => {
  it("when set, refuses another achievement to an unsubscribed member with a clear message", async () => {
    const { createExecutionContext, waitOnExecutionContext } = await import("cloudflare:test");
    const worker = (await import("#workers/test-app.ts")).default;
    const { admin, member } = await organisationWithMember();
    const limited = { ...env, FREE_ACHIEVEMENTS_PER_MEMBER: "1" };
    const giveWithLimit = async (title: string) => {
      const ctx = createExecutionContext();
      const response = await worker.fetch(
        new Request("http://localhost/dashboard", {
          method: "POST",
          headers: {
            "Content-Type": "application/x-www-form-urlencoded",
            Origin: "http://localhost",
            Host: "localhost",
            Cookie: admin.cookie,
          },
          body: new URLSearchParams({
            intent: "give-achievement",
            formId: "give",
            userId: member.id,
            title,
            date: today(),
            type: "award",
          }),
          redirect: "manual",
        }),
        limited,
        ctx,
      );
      await waitOnExecutionContext(ctx);
      return response;
    };
    await giveWithLimit("First");
    await giveWithLimit("Second");
    expect((await achievementsOf(member.id)).map((row) => row.title)).toEqual(["First"]);
  });
});
