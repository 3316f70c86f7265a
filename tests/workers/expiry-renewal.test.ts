import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "#workers/test-app.ts";
import { sendExpiryReminders } from "#app/services/expiry-reminders.server.ts";
import { formatLongDate } from "#app/utils/dates.ts";
import { readEnv } from "#app/utils/env.server.ts";
import { createDb } from "#db/client.ts";
import { addDays } from "#db/queries/credentials/given.ts";
import { today } from "#tests/today.ts";
import { credentialJson, credentialOf, dccVerify, verified } from "./credentials-helpers.ts";
import { createAccount, exportOf, get, mailsTo, postForm, unzip } from "./helpers.ts";
import {
  addMember,
  createOrganisation,
  createOrganisationWithMember,
  giveAchievement,
  uniqueName,
} from "./factories.ts";

const DAILY_CRON = "0 3 * * *";

/** The page's text as a reader sees it. */
const pageText = async (path: string, cookie?: string) =>
  (await (await get(path, cookie)).text())
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<!--.*?-->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, " ");

/** An admin gives the member an achievement with 'Valid until', and the member accepts it. */
async function giveExpiring(
  admin: { cookie: string },
  member: { id: string; cookie: string },
  { title, date = today(), validUntil }: { title: string; date?: string; validUntil: string },
) {
  const { response, achievementId } = await giveAchievement(admin.cookie, {
    userId: member.id,
    title,
    type: "training",
    date,
    validUntil,
  });
  expect(response.status).toBe(302);
  const accepted = await postForm(
    "/passport",
    { intent: "accept", achievementId: achievementId! },
    { cookie: member.cookie },
  );
  expect(accepted.status).toBe(302);
  return achievementId!;
}

const row = (id: string) =>
  env.DB.prepare(
    `select status, valid_until as validUntil, renews_achievement_id as renews, renewal_count as renewals,
       first_given_on as firstGivenOn, renewed_by as renewedBy, expiry_reminded_days as reminded
     from achievements where id = ?`,
  )
    .bind(id)
    .first<Record<string, string | number | null>>();

const notificationsOf = async (userId: string) =>
  (
    await env.DB.prepare(
      "select title, message from notifications where user_id = ? and title = 'Achievement expiring'",
    )
      .bind(userId)
      .all<{ title: string; message: string }>()
  ).results;

/** The daily cron, run at 03:00 UTC on `day`. */
async function dailyCronOn(day: string) {
  const ctx = createExecutionContext();
  const scheduledTime = Date.parse(`${day}T03:00:00Z`);
  await worker.scheduled(createScheduledController({ scheduledTime, cron: DAILY_CRON }), env, ctx);
  await waitOnExecutionContext(ctx);
}

describe("an achievement with 'Valid until'", () => {
  it("carries validUntil in its credential, verifies, and shows 'Valid until' on the passports and the credential page", async () => {
    const { admin, member } = await createOrganisationWithMember({ name: uniqueName("Certifiers") });
    const validUntil = addDays(today(), 60);
    const id = await giveExpiring(admin, member, { title: "First Aid", validUntil });
    const credentialId = await credentialOf(id);
    const credential = await credentialJson(credentialId);
    expect(credential.validUntil).toBe(`${validUntil}T00:00:00Z`);
    expect(await dccVerify(credential)).toMatchObject(verified);
    const expected = `Valid until ${formatLongDate(validUntil)}`;
    expect(await pageText(`/passport/${member.id}`)).toContain(expected);
    expect(await pageText("/passport", member.cookie)).toContain(expected);
    const page = await pageText(`/credentials/${credentialId}`);
    expect(page).toContain(expected);
    expect(page).toMatch(/Status: Valid/);
  });

  it("once past it, verifier-core reports the credential expired; the passport lists it as 'Expired on', Verify too", async () => {
    const { admin, member } = await createOrganisationWithMember({ name: uniqueName("Lapsed") });
    const validUntil = addDays(today(), -1);
    const id = await giveExpiring(admin, member, { title: "Forklift", date: addDays(today(), -400), validUntil });
    const credentialId = await credentialOf(id);
    const credential = await credentialJson(credentialId);
    expect(credential.validUntil).toBe(`${validUntil}T00:00:00Z`);
    // Genuine, not revoked, valid against the OB 3.0 schema: only expired.
    expect(await dccVerify(credential)).toMatchObject({
      fatal: [],
      signature: true,
      notRevoked: true,
      schema: true,
      notExpired: false,
    });
    const expected = `Expired on ${formatLongDate(validUntil)}`;
    const passport = await pageText(`/passport/${member.id}`);
    expect(passport).toContain("Forklift");
    expect(passport).toContain(expected);
    const page = await pageText(`/credentials/${credentialId}`);
    expect(page).toMatch(/Status: Expired/);
    expect(page).toContain(expected);
    const verify = await postForm("/verify", { json: JSON.stringify(credential) });
    const verifyText = (await verify.text())
      .replace(/<script[\s\S]*?<\/script>/g, " ")
      .replace(/<!--.*?-->/g, "")
      .replace(/<[^>]+>/g, " ")
      .replace(/\s+/g, " ");
    expect(verifyText).toMatch(/Status: Expired/);
    expect(verifyText).toContain(expected);
  });

  it.each([
    ["the achievement's own day", (date: string) => date, "Valid until must be after the achievement date"],
    ["a day before it", (date: string) => addDays(date, -1), "Valid until must be after the achievement date"],
    ["no date", () => "someday", "Valid until must be a date"],
  ])("is refused on %s, with a clear message and the typed data kept", async (_, until, message) => {
    const { admin, member } = await createOrganisationWithMember({ name: uniqueName("Careful") });
    const date = addDays(today(), -10);
    const { response, achievementId } = await giveAchievement(admin.cookie, {
      userId: member.id,
      title: "Typed Title Kept",
      date,
      validUntil: until(date),
    });
    expect(response.status).toBe(400);
    const body = await response.text();
    expect(body).toContain(message);
    expect(body).toContain("Typed Title Kept");
    expect(achievementId).toBeNull();
  });

  it("is optional: without it nothing expires and the credential has no validUntil", async () => {
    const { admin, member } = await createOrganisationWithMember({ name: uniqueName("Forever") });
    const { achievementId } = await giveAchievement(admin.cookie, {
      userId: member.id,
      title: "Lifetime",
      validUntil: "",
    });
    await postForm("/passport", { intent: "accept", achievementId: achievementId! }, { cookie: member.cookie });
    expect((await row(achievementId!))!.validUntil).toBeNull();
    expect((await credentialJson(await credentialOf(achievementId!))).validUntil).toBeUndefined();
  });
});

describe("expiry reminders from the daily cron", () => {
  it("go 30 and 7 days before, to the holder and the organisation's admins, each exactly once; e-mail honours the opt-out", async () => {
    const { admin, organizationId } = await createOrganisation({ name: uniqueName("Reminders") });
    const coAdmin = await addMember(organizationId, { name: "Cody Coadmin" });
    await env.DB.prepare(
      "insert into organization_roles (id, user_id, organization_id, role, created_at) values (?, ?, ?, 'admin', 0)",
    )
      .bind(crypto.randomUUID(), coAdmin.id, organizationId)
      .run();
    const member = await addMember(organizationId, { name: "Hana Holder" });
    // The co-admin turned recognition e-mails off: notifications only.
    await env.DB.prepare("update profiles set recognition_emails = 0 where id = ?").bind(coAdmin.id).run();
    const validUntil = addDays(today(), 90);
    const id = await giveExpiring(admin, member, { title: "Safety Pass", validUntil });
    const everyone = [member, admin, coAdmin];
    // The daily run's clean-up deletes dev mail past its age (the clock runs ahead here): every
    // mail seen after a run is tallied.
    const seen = new Map(everyone.map((person) => [person.email, new Set<string>()]));
    const counts = async () =>
      Promise.all(
        everyone.map(async (person) => {
          for (const mail of await mailsTo(person.email, '"Safety Pass" expires%'))
            seen.get(person.email)!.add(`${mail.subject}|${mail.text}`);
          return {
            notifications: (await notificationsOf(person.id)).length,
            mails: seen.get(person.email)!.size,
          };
        }),
      );

    await dailyCronOn(addDays(validUntil, -31));
    expect(await counts()).toEqual(everyone.map(() => ({ notifications: 0, mails: 0 })));

    await dailyCronOn(addDays(validUntil, -30));
    const after30 = [
      { notifications: 1, mails: 1 },
      { notifications: 1, mails: 1 },
      { notifications: 1, mails: 0 },
    ];
    expect(await counts()).toEqual(after30);
    expect((await notificationsOf(member.id))[0]!.message).toBe(
      `"Safety Pass" from ${(await orgName(organizationId))!} is valid until ${formatLongDate(validUntil)}: 30 days left. Ask ${(await orgName(organizationId))!} to renew it.`,
    );
    const [holderMail] = await mailsTo(member.email, '"Safety Pass" expires%');
    expect(holderMail!.text).toContain("recognition emails are on in your settings");
    expect((await row(id))!.reminded).toBe(30);

    // A rerun the same day, and the days between, send nothing more.
    await dailyCronOn(addDays(validUntil, -30));
    expect(await counts()).toEqual(after30);
    await dailyCronOn(addDays(validUntil, -20));
    expect(await counts()).toEqual(after30);
    await dailyCronOn(addDays(validUntil, -8));
    expect(await counts()).toEqual(after30);

    await dailyCronOn(addDays(validUntil, -7));
    const after7 = [
      { notifications: 2, mails: 2 },
      { notifications: 2, mails: 2 },
      { notifications: 2, mails: 0 },
    ];
    expect(await counts()).toEqual(after7);
    expect((await row(id))!.reminded).toBe(7);
    for (const day of [-7, -1, 0]) {
      await dailyCronOn(addDays(validUntil, day));
      expect(await counts()).toEqual(after7);
    }
  });

  it("an entry first seen within a week gets only the 7-day reminder; a holder who opted out gets no e-mail", async () => {
    const { admin, member } = await createOrganisationWithMember({ name: uniqueName("Late") });
    await env.DB.prepare("update profiles set recognition_emails = 0 where id = ?").bind(member.id).run();
    const validUntil = addDays(today(), 40);
    const id = await giveExpiring(admin, member, { title: "Short Notice", validUntil });
    await dailyCronOn(addDays(validUntil, -5));
    expect((await row(id))!.reminded).toBe(7);
    expect(await notificationsOf(member.id)).toHaveLength(1);
    expect(await mailsTo(member.email, '"Short Notice" expires%')).toHaveLength(0);
    expect(await mailsTo(admin.email, '"Short Notice" expires%')).toHaveLength(1);
    await dailyCronOn(addDays(validUntil, -3));
    expect(await notificationsOf(member.id)).toHaveLength(1);
  });

  it("does a bounded share per run and resumes on the next", async () => {
    const { admin, member } = await createOrganisationWithMember({ name: uniqueName("Bounded") });
    const validUntil = addDays(today(), 50);
    const ids = [
      await giveExpiring(admin, member, { title: "One", validUntil }),
      await giveExpiring(admin, member, { title: "Two", validUntil }),
      await giveExpiring(admin, member, { title: "Three", validUntil }),
    ];
    const context = {
      db: createDb(env.DB),
      env: readEnv({ ...env }),
      cloudflare: { env, ctx: createExecutionContext() },
    };
    const on = new Date(`${addDays(validUntil, -30)}T03:00:00Z`);
    expect(await sendExpiryReminders(context, on, 2)).toMatchObject({ reminded: 2, more: true });
    expect(await sendExpiryReminders(context, on, 2)).toMatchObject({ reminded: 1, more: false });
    expect(await sendExpiryReminders(context, on, 2)).toMatchObject({ reminded: 0, more: false });
    for (const id of ids) expect((await row(id))!.reminded).toBe(30);
    expect(await notificationsOf(member.id)).toHaveLength(3);
  });
});

const orgName = async (organizationId: string) =>
  (await env.DB.prepare("select name from organizations where id = ?").bind(organizationId).first<{ name: string }>())
    ?.name;

/** The admin's 'Renew' on the given-achievements list. */
const renew = (cookie: string, achievementId: string, validUntil: string, submissionKey?: string) =>
  postForm(
    "/dashboard/achievements",
    { intent: "renew", achievementId, validUntil, ...(submissionKey ? { submissionKey } : {}) },
    { cookie },
  );

const renewalOf = (achievementId: string) =>
  env.DB.prepare("select id from achievements where renews_achievement_id = ? order by created_at desc limit 1")
    .bind(achievementId)
    .first<{ id: string }>()
    .then((found) => found?.id ?? null);

describe("renewal", () => {
  it("gives a new achievement the member accepts; the older entry is folded into its history, both credentials verify", async () => {
    const { admin, member } = await createOrganisationWithMember({ name: uniqueName("Renewers") });
    const firstDate = addDays(today(), -300);
    const first = await giveExpiring(admin, member, {
      title: "Crane Licence",
      date: firstDate,
      validUntil: addDays(today(), 10),
    });
    const firstCredential = await credentialOf(first);
    const nextUntil = addDays(today(), 375);
    const key = crypto.randomUUID();
    // A double submit gives one renewal.
    for (let press = 0; press < 2; press++) expect((await renew(admin.cookie, first, nextUntil, key)).status).toBe(302);
    expect(
      (await env.DB.prepare("select count(*) as n from achievements where renews_achievement_id = ?")
        .bind(first)
        .first<{ n: number }>())!.n,
    ).toBe(1);
    const second = (await renewalOf(first))!;
    expect(await row(second)).toMatchObject({
      status: "pending",
      validUntil: nextUntil,
      renews: first,
      renewals: 1,
      firstGivenOn: firstDate,
    });
    // Until it is accepted the passport still shows the first.
    expect(await pageText(`/passport/${member.id}`)).toContain(`Valid until ${formatLongDate(addDays(today(), 10))}`);

    expect(
      (await postForm("/passport", { intent: "accept", achievementId: second }, { cookie: member.cookie })).status,
    ).toBe(302);
    expect((await row(first))!.renewedBy).toBe(second);
    const passport = await pageText(`/passport/${member.id}`);
    expect(passport.match(/Crane Licence/g)).toHaveLength(1);
    expect(passport).toContain(`Renewed 1 time, first given ${formatLongDate(firstDate)}`);
    expect(passport).toContain(`Valid until ${formatLongDate(nextUntil)}`);
    expect((await pageText("/passport", member.cookie)).match(/Crane Licence/g)).toHaveLength(1);

    const renewed = await credentialJson(await credentialOf(second));
    expect(renewed.validUntil).toBe(`${nextUntil}T00:00:00Z`);
    expect(renewed.credentialSubject.achievement.related).toEqual([
      { id: `http://localhost/credentials/${firstCredential}`, type: ["Related"] },
    ]);
    expect(await dccVerify(renewed)).toMatchObject(verified);
    expect(await dccVerify(await credentialJson(firstCredential))).toMatchObject(verified);

    // Renewed again: the history counts from the first.
    const third = await (async () => {
      expect((await renew(admin.cookie, second, addDays(today(), 700))).status).toBe(302);
      const id = (await renewalOf(second))!;
      await postForm("/passport", { intent: "accept", achievementId: id }, { cookie: member.cookie });
      return id;
    })();
    expect(await row(third)).toMatchObject({ renewals: 2, firstGivenOn: firstDate });
    expect(await pageText(`/passport/${member.id}`)).toContain(
      `Renewed 2 times, first given ${formatLongDate(firstDate)}`,
    );

    // data.json and resume.json carry the expiry; resume.json lists the chain once.
    const { json } = await unzip(await exportOf(member.cookie));
    const data = json("data.json") as {
      achievementsReceived: { id: string; validUntil: string | null; renewedBy: string | null }[];
    };
    expect(data.achievementsReceived.find((entry) => entry.id === third)).toMatchObject({
      validUntil: addDays(today(), 700),
      renewedBy: null,
    });
    expect(data.achievementsReceived.find((entry) => entry.id === first)).toMatchObject({ renewedBy: second });
    const resume = (await (await get("/settings/resume.json", member.cookie)).json()) as {
      certificates: { name: string; validUntil?: string }[];
    };
    expect(resume.certificates.filter((entry) => entry.name === "Crane Licence")).toEqual([
      expect.objectContaining({ validUntil: addDays(today(), 700) }),
    ]);
  });

  it("carries the endorsements of the term it renews (issue 43)", async () => {
    const { admin, member } = await createOrganisationWithMember({ name: uniqueName("Renewers") });
    const first = await giveExpiring(admin, member, { title: "Rigging Pass", validUntil: addDays(today(), 10) });
    const colleague = await createAccount({ name: "Cora Colleague" });
    const endorse = { intent: "endorse", as: "person", comment: "Safe hands on the crane." };
    expect(
      (await postForm(`/passport/${member.id}/endorse/${first}`, endorse, { cookie: colleague.cookie })).status,
    ).toBe(302);
    const endorsed = () =>
      env.DB.prepare("select id, achievement_id as achievementId from endorsements where owner_id = ?")
        .bind(member.id)
        .first<{ id: string; achievementId: string }>();
    const show = { intent: "show-endorsement", endorsementId: (await endorsed())!.id };
    expect((await postForm("/passport/endorsements", show, { cookie: member.cookie })).status).toBe(302);

    expect((await renew(admin.cookie, first, addDays(today(), 375))).status).toBe(302);
    const second = (await renewalOf(first))!;
    expect(
      (await postForm("/passport", { intent: "accept", achievementId: second }, { cookie: member.cookie })).status,
    ).toBe(302);
    expect(await endorsed()).toMatchObject({ achievementId: second });
    const passport = await get(`/passport/${member.id}`);
    expect(await passport.text()).toContain(`href="/passport/${member.id}/endorse/${second}"`);
    expect(await pageText(`/passport/${member.id}`)).toContain("Endorsed by 1");
  });

  it("is only for an admin of the achievement's organisation, and only for its live accepted entry", async () => {
    const { admin, member, organizationId } = await createOrganisationWithMember({ name: uniqueName("Guarded") });
    const id = await giveExpiring(admin, member, { title: "Guarded Pass", validUntil: addDays(today(), 20) });
    const other = await createOrganisation({ name: uniqueName("Elsewhere") });
    const colleague = await addMember(organizationId);
    const stranger = await createAccount();
    const until = addDays(today(), 400);
    // Not an admin of the entry's organisation (its own member, the holder, another organisation's admin).
    for (const caller of [colleague, member, other.admin, stranger])
      expect((await renew(caller.cookie, id, until)).status).toBe(403);
    expect(await renewalOf(id)).toBeNull();
    // Unknown entry.
    expect((await renew(admin.cookie, crypto.randomUUID(), until)).status).toBe(404);
    // A new expiry that is not after today.
    const past = await renew(admin.cookie, id, today());
    expect(past.status).toBe(400);
    expect(await past.text()).toContain("Valid until must be after today");
    // A pending offer is not renewed.
    const { achievementId: pending } = await giveAchievement(admin.cookie, { userId: member.id, title: "Pending One" });
    expect((await renew(admin.cookie, pending!, until)).status).toBe(400);
    // One live renewal at a time; the older entry once renewed is not renewed again.
    expect((await renew(admin.cookie, id, until)).status).toBe(302);
    expect((await renew(admin.cookie, id, addDays(until, 1))).status).toBe(400);
    await postForm("/passport", { intent: "accept", achievementId: (await renewalOf(id))! }, { cookie: member.cookie });
    expect((await renew(admin.cookie, id, addDays(until, 2))).status).toBe(400);
  });
});

describe("the given-achievements list's expiry filters", () => {
  it("'Expiring in 30 days' and 'Expired' list only those, with 'Renew'", async () => {
    const { admin, member } = await createOrganisationWithMember({ name: uniqueName("Filters") });
    await giveExpiring(admin, member, { title: "Soon Due", validUntil: addDays(today(), 12) });
    await giveExpiring(admin, member, {
      title: "Long Gone",
      date: addDays(today(), -90),
      validUntil: addDays(today(), -3),
    });
    await giveExpiring(admin, member, { title: "Far Away", validUntil: addDays(today(), 200) });
    const all = await pageText("/dashboard/achievements", admin.cookie);
    for (const title of ["Soon Due", "Long Gone", "Far Away"]) expect(all).toContain(title);
    const expiring = await pageText("/dashboard/achievements?filter=expiring", admin.cookie);
    expect(expiring).toContain("Soon Due");
    expect(expiring).not.toContain("Long Gone");
    expect(expiring).not.toContain("Far Away");
    expect(expiring).toContain("Renew");
    expect(expiring).toContain("Showing 1 of 1 achievements expiring in 30 days");
    const expired = await pageText("/dashboard/achievements?filter=expired", admin.cookie);
    expect(expired).toContain("Long Gone");
    expect(expired).toContain(`Expired on ${formatLongDate(addDays(today(), -3))}`);
    expect(expired).not.toContain("Soon Due");
  });
});
