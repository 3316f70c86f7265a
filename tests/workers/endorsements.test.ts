import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createAccount, exportOf, get, ORIGIN, pageText, postForm, textOf, toastFrom, unzip } from "./helpers.ts";
import { addSelfAchievement, createOrganisation } from "./factories.ts";
import { credentialJson, dccVerify, issuedCredential, verified, type Credential } from "./credentials-helpers.ts";
import { RATE_LIMITS } from "#app/utils/rate-limit.server.ts";
import { purgeUser } from "#app/services/account-purge.server.ts";
import { createDb } from "#db/client.ts";

// Endorsements (issue 33, decision 072): an EndorsementCredential signed by the endorsing person's
// own did:web key or by their organisation's, verified by the DCC's verifier-core, which also
// validates it against the EndorsementCredential JSON schema (vendored in
// app/services/credentials/ob_v3p0_endorsementcredential_schema.json from 1EdTech's published
// Open Badges 3.0 schema, https://purl.imsglobal.org/spec/ob/v3p0/schema/json/ob_v3p0_endorsementcredential_schema.json,
// served to it by tests/workers/dcc-verifier.ts).

/** A person with one achievement on their public passport, and its id. */
async function ownerWithAchievement(title = "Shipped the billing rewrite") {
  const owner = await createAccount({ name: "Olive Owner" });
  expect((await addSelfAchievement(owner.cookie, { title, company: "Acme" })).status).toBe(302);
  const row = await env.DB.prepare("select id from achievements where user_id = ? order by created_at desc limit 1")
    .bind(owner.id)
    .first<{ id: string }>();
  return { owner, achievementId: row!.id };
}

const endorsePath = (ownerId: string, achievementId: string) => `/passport/${ownerId}/endorse/${achievementId}`;

function endorse(
  cookie: string,
  { ownerId, achievementId }: { ownerId: string; achievementId: string },
  fields: { as?: string; comment?: string } = {},
) {
  return postForm(
    endorsePath(ownerId, achievementId),
    { intent: "endorse", as: fields.as ?? "person", comment: fields.comment ?? "Careful, kind and fast." },
    { cookie },
  );
}

type Row = { id: string; status: string; endorserName: string; endorserOrganizationId: string | null };
const endorsementsOf = async (achievementId: string) =>
  (
    await env.DB.prepare(
      "select id, status, endorser_name as endorserName, endorser_organization_id as endorserOrganizationId from endorsements where achievement_id = ? order by created_at",
    )
      .bind(achievementId)
      .all<Row>()
  ).results;

async function servedEndorsement(id: string) {
  const response = await SELF.fetch(`${ORIGIN}/endorsements/${id}`);
  expect(response.status).toBe(200);
  expect(response.headers.get("Access-Control-Allow-Origin")).toBe("*");
  return (await response.json()) as Credential;
}

/** What the app's own Verify page says of a pasted credential, as text. */
async function verifyPageText(credential: Credential) {
  return textOf(await postForm("/verify", { json: JSON.stringify(credential) }));
}

const answer = (cookie: string, endorsementId: string, intent: "show-endorsement" | "hide-endorsement") =>
  postForm("/passport/endorsements", { intent, endorsementId }, { cookie });

describe("endorsements", () => {
  it("a person endorses: a pending EndorsementCredential signed by their own did:web, the owner told", async () => {
    const { owner, achievementId } = await ownerWithAchievement();
    const colleague = await createAccount({ name: "Cora Colleague" });
    const form = await get(endorsePath(owner.id, achievementId), colleague.cookie);
    expect(form.status).toBe(200);
    expect(await form.text()).toContain("Endorse Shipped the billing rewrite");

    const response = await endorse(colleague.cookie, { ownerId: owner.id, achievementId });
    expect(response.status).toBe(302);
    expect(toastFrom(response)?.title).toBe("Endorsement sent");
    const [row] = await endorsementsOf(achievementId);
    expect(row).toMatchObject({ status: "pending", endorserName: "Cora Colleague", endorserOrganizationId: null });
    const notice = await env.DB.prepare("select title, message from notifications where user_id = ?")
      .bind(owner.id)
      .first<{ title: string; message: string }>();
    expect(notice).toEqual({
      title: "New endorsement",
      message:
        'Cora Colleague endorsed "Shipped the billing rewrite - Acme". Show or hide it in Endorsements on your passport.',
    });

    const credential = await servedEndorsement(row!.id);
    expect(credential).toMatchObject({
      id: `${ORIGIN}/endorsements/${row!.id}`,
      type: ["VerifiableCredential", "EndorsementCredential"],
      issuer: { id: `did:web:localhost:people:${colleague.id}`, type: ["Profile"], name: "Cora Colleague" },
      credentialSubject: {
        id: `urn:uuid:${achievementId}`,
        type: ["EndorsementSubject"],
        endorsementComment: "Careful, kind and fast.",
      },
    });
    const { raw: _, ...result } = await dccVerify(credential);
    expect(result).toEqual({ ...verified, notRevoked: expect.anything() });
    expect(result.schema).toBe(true);

    // The person's DID document lists the key; the download is the same credential.
    const did = await (await SELF.fetch(`${ORIGIN}/people/${colleague.id}/did.json`)).json<{ id: string }>();
    expect(did.id).toBe(`did:web:localhost:people:${colleague.id}`);
    const download = await SELF.fetch(`${ORIGIN}/endorsements/${row!.id}/download`);
    expect(download.headers.get("Content-Disposition")).toContain("attachment");
    expect(await download.json()).toEqual(credential);
    // The app's own Verify page checks it too: its schema, the person's key, the signature.
    const verdict = await verifyPageText(credential);
    expect(verdict).toContain("Matches the Open Badges 3.0 EndorsementCredential schema.");
    expect(verdict).toMatch(/Status:\s+Valid/);
    // Nothing shows before the owner answers.
    expect(await pageText(`/passport/${owner.id}`)).not.toContain("Endorsed by");
  });

  it("an organisation's admin endorses for it: signed by the organisation's did:web key", async () => {
    const { owner, achievementId } = await ownerWithAchievement();
    const { admin, organizationId } = await createOrganisation({ adminName: "Ada Admin", name: "Globex" });
    const page = await get(endorsePath(owner.id, achievementId), admin.cookie);
    expect(await page.text()).toContain("Globex");
    expect((await endorse(admin.cookie, { ownerId: owner.id, achievementId }, { as: organizationId })).status).toBe(
      302,
    );
    const [row] = await endorsementsOf(achievementId);
    expect(row).toMatchObject({ endorserName: "Globex", endorserOrganizationId: organizationId });
    const credential = await servedEndorsement(row!.id);
    expect(credential.issuer).toMatchObject({ id: `did:web:localhost:orgs:${organizationId}`, name: "Globex" });
    const { raw: _, ...result } = await dccVerify(credential);
    expect(result).toEqual({ ...verified, notRevoked: expect.anything() });
    // The same admin may still endorse as themselves: one per person and one per organisation.
    expect((await endorse(admin.cookie, { ownerId: owner.id, achievementId })).status).toBe(302);
    expect(await endorsementsOf(achievementId)).toHaveLength(2);
  });

  it("the Verify page checks an AchievementCredential and then an endorsement, in the same isolate", async () => {
    // Both schemas come from one published file: checking one must not break the other.
    const { credentialId } = await issuedCredential();
    const achievementVerdict = await verifyPageText(await credentialJson(credentialId));
    expect(achievementVerdict).toContain("Matches the Open Badges 3.0 AchievementCredential schema.");
    const { owner, achievementId } = await ownerWithAchievement();
    const colleague = await createAccount({ name: "Cora Colleague" });
    expect((await endorse(colleague.cookie, { ownerId: owner.id, achievementId })).status).toBe(302);
    const [row] = await endorsementsOf(achievementId);
    const credential = await servedEndorsement(row!.id);
    const verdict = await verifyPageText(credential);
    expect(verdict).toContain("Matches the Open Badges 3.0 EndorsementCredential schema.");
  });

  it("the owner shows it ('Endorsed by 1' on the public card, cache purged), then removes it", async () => {
    const { owner, achievementId } = await ownerWithAchievement();
    const colleague = await createAccount({ name: "Cora Colleague" });
    await endorse(colleague.cookie, { ownerId: owner.id, achievementId }, { comment: "The best reviewer I know." });
    const [row] = await endorsementsOf(achievementId);
    // The anonymous page is cached before the answer: showing must purge it.
    expect(await pageText(`/passport/${owner.id}`)).not.toContain("Endorsed by");

    expect(await pageText("/passport/endorsements", owner.cookie)).toContain("Waiting for you");
    const shown = await answer(owner.cookie, row!.id, "show-endorsement");
    expect(toastFrom(shown)?.title).toBe("Endorsement shown");
    const text = await pageText(`/passport/${owner.id}`);
    expect(text).toContain("Endorsed by 1");
    expect(text).toContain("Cora Colleague");
    expect(text).toContain("The best reviewer I know.");

    const removed = await answer(owner.cookie, row!.id, "hide-endorsement");
    expect(toastFrom(removed)?.title).toBe("Endorsement hidden");
    expect(await pageText(`/passport/${owner.id}`)).not.toContain("Endorsed by");
    expect((await endorsementsOf(achievementId))[0]!.status).toBe("hidden");
    // The credential stays the endorser's true statement: still served.
    await servedEndorsement(row!.id);
  });

  it("refuses endorsing one's own achievement", async () => {
    const { owner, achievementId } = await ownerWithAchievement();
    expect((await get(endorsePath(owner.id, achievementId), owner.cookie)).status).toBe(403);
    const response = await endorse(owner.cookie, { ownerId: owner.id, achievementId });
    expect(response.status).toBe(403);
    expect(await response.text()).toContain("You can't endorse your own achievement.");
    expect(await endorsementsOf(achievementId)).toEqual([]);
  });

  it("refuses a second endorsement by the same person (a double submit writes once)", async () => {
    const { owner, achievementId } = await ownerWithAchievement();
    const colleague = await createAccount({ name: "Cora Colleague" });
    const target = { ownerId: owner.id, achievementId };
    const [first, second] = await Promise.all([endorse(colleague.cookie, target), endorse(colleague.cookie, target)]);
    expect([first.status, second.status].sort()).toEqual([302, 400]);
    const again = await endorse(colleague.cookie, target);
    expect(again.status).toBe(400);
    expect(await again.text()).toContain("You have already endorsed this achievement.");
    expect(await endorsementsOf(achievementId)).toHaveLength(1);
    const notices = await env.DB.prepare("select count(*) as n from notifications where user_id = ?")
      .bind(owner.id)
      .first<{ n: number }>();
    expect(notices!.n).toBe(1);
  });

  it("limits how many endorsements one person sends in an hour", async () => {
    const colleague = await createAccount({ name: "Cora Colleague" });
    const { owner, achievementId } = await ownerWithAchievement();
    const target = { ownerId: owner.id, achievementId };
    for (let attempt = 0; attempt < RATE_LIMITS.endorse.max; attempt++) await endorse(colleague.cookie, target);
    const limited = await endorse(colleague.cookie, target);
    expect(limited.status).toBe(429);
    expect(await limited.text()).toContain("You have endorsed many achievements in the last hour.");
  });

  describe("refuses", () => {
    it("a signed-out visitor: sent to sign in", async () => {
      const { owner, achievementId } = await ownerWithAchievement();
      const page = await get(endorsePath(owner.id, achievementId));
      expect(page.status).toBe(302);
      expect(page.headers.get("Location")).toMatch(/^\/auth\?redirectTo=/);
      expect((await endorse("", { ownerId: owner.id, achievementId })).status).toBe(302);
      expect(await endorsementsOf(achievementId)).toEqual([]);
    });

    it.each([
      ["hidden", "update achievements set is_visible = 0 where id = ?"],
      ["pending", "update achievements set status = 'pending' where id = ?"],
      [
        "on a private passport",
        "update profiles set is_public = 0 where id = (select user_id from achievements where id = ?)",
      ],
    ])("an achievement %s: not found", async (_, statement) => {
      const { owner, achievementId } = await ownerWithAchievement();
      await env.DB.prepare(statement).bind(achievementId).run();
      const colleague = await createAccount();
      expect((await get(endorsePath(owner.id, achievementId), colleague.cookie)).status).toBe(404);
      expect((await endorse(colleague.cookie, { ownerId: owner.id, achievementId })).status).toBe(404);
      expect(await endorsementsOf(achievementId)).toEqual([]);
    });

    it("an achievement named under another person's passport: not found", async () => {
      const { achievementId } = await ownerWithAchievement();
      const other = await createAccount();
      const colleague = await createAccount();
      expect((await endorse(colleague.cookie, { ownerId: other.id, achievementId })).status).toBe(404);
    });

    it("endorsing for an organisation one does not administer", async () => {
      const { owner, achievementId } = await ownerWithAchievement();
      const { organizationId } = await createOrganisation({ name: "Initech" });
      const colleague = await createAccount();
      const response = await endorse(colleague.cookie, { ownerId: owner.id, achievementId }, { as: organizationId });
      expect(response.status).toBe(403);
      expect(await endorsementsOf(achievementId)).toEqual([]);
    });

    it("answering someone else's endorsement", async () => {
      const { owner, achievementId } = await ownerWithAchievement();
      const colleague = await createAccount();
      await endorse(colleague.cookie, { ownerId: owner.id, achievementId });
      const [row] = await endorsementsOf(achievementId);
      for (const intruder of [colleague, await createAccount()]) {
        expect((await answer(intruder.cookie, row!.id, "show-endorsement")).status).toBe(403);
      }
      expect((await endorsementsOf(achievementId))[0]!.status).toBe("pending");
    });
  });

  it("a purged endorser's own endorsements leave the passport; those for an organisation stay", async () => {
    const { owner, achievementId } = await ownerWithAchievement();
    const { admin, organizationId } = await createOrganisation({ adminName: "Ada Admin", name: "Globex" });
    const target = { ownerId: owner.id, achievementId };
    await endorse(admin.cookie, target, { comment: "As myself." });
    await endorse(admin.cookie, target, { as: organizationId, comment: "As Globex." });
    for (const row of await endorsementsOf(achievementId)) await answer(owner.cookie, row.id, "show-endorsement");
    expect(await pageText(`/passport/${owner.id}`)).toContain("Endorsed by 2");

    await purgeUser({ db: createDb(env.DB), media: env.MEDIA, env }, admin.id);
    expect(await endorsementsOf(achievementId)).toEqual([
      expect.objectContaining({ endorserName: "Globex", endorserOrganizationId: organizationId }),
    ]);
    const text = await pageText(`/passport/${owner.id}`);
    expect(text).toContain("Endorsed by 1");
    expect(text).not.toContain("As myself.");
  });

  it("data.json and resume.json hold them: received and given; the résumé only what the passport shows", async () => {
    const { owner, achievementId } = await ownerWithAchievement();
    const colleague = await createAccount({ name: "Cora Colleague" });
    await endorse(colleague.cookie, { ownerId: owner.id, achievementId }, { comment: "Solid work." });
    const [row] = await endorsementsOf(achievementId);
    const resume = async () => (await get("/settings/resume.json", owner.cookie)).json<{ references?: unknown[] }>();
    expect((await resume()).references).toEqual([]);
    await answer(owner.cookie, row!.id, "show-endorsement");
    expect((await resume()).references).toEqual([
      { name: "Cora Colleague", reference: 'Solid work. (endorsing "Shipped the billing rewrite - Acme")' },
    ]);
    const expected = {
      id: row!.id,
      achievementId,
      endorserName: "Cora Colleague",
      comment: "Solid work.",
      credential: await servedEndorsement(row!.id),
    };
    const received = (await unzip(await exportOf(owner.cookie))).json("data.json");
    expect(received.endorsementsReceived).toEqual([expect.objectContaining({ ...expected, status: "shown" })]);
    expect(received.endorsementsGiven).toEqual([]);
    const given = (await unzip(await exportOf(colleague.cookie))).json("data.json");
    expect(given.endorsementsGiven).toEqual([expect.objectContaining(expected)]);
  });
});
