import { createExecutionContext, createScheduledController, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { purgeUser } from "#app/services/account-purge.server.ts";
import { didOf, rotateKey } from "#app/services/credentials/keys.server.ts";
import { createDb } from "#db/client.ts";
import worker from "#workers/test-app.ts";
import { FREQUENT_CRON } from "#workers/scheduled.ts";
import { countRows, get, ORIGIN, postForm, toastFrom } from "./helpers.ts";
import { expectConsoleError } from "./console-errors.ts";
import { createOrganisation, createOrganisationWithMember, giveAchievement, uniqueName } from "./factories.ts";
import {
  credentialJson,
  credentialOf,
  dccVerify,
  giveAndAccept,
  issuedCredential,
  verified,
  type Credential,
} from "./credentials-helpers.ts";

const revoke = (cookie: string, credentialId: string) =>
  postForm("/dashboard/achievements", { intent: "revoke", credentialId }, { cookie });

/** The app's own verifier, as a visitor uses it: the Verify page with pasted JSON. */
async function verifyPage(credential: unknown) {
  const response = await postForm("/verify", { json: JSON.stringify(credential) });
  expect(response.status).toBe(200);
  const html = await response.text();
  // The page's text, as a reader sees it: "Status: Valid".
  const text = html.replace(/<!--.*?-->/g, "").replace(/<[^>]+>/g, " ");
  return { html, verdict: /Status:\s+(Valid|Revoked|Invalid)/.exec(text)?.[1] };
}

describe("an accepted organisation achievement is an Open Badges 3.0 credential", () => {
  it("is issued on acceptance and verifies with verifier-core (signature, status, schema)", async () => {
    const { credentialId, organizationId, member } = await issuedCredential();
    const credential = await credentialJson(credentialId);
    expect(credential["@context"]).toEqual([
      "https://www.w3.org/ns/credentials/v2",
      "https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json",
    ]);
    expect(credential.id).toBe(`${ORIGIN}/credentials/${credentialId}`);
    expect(credential.type).toEqual(["VerifiableCredential", "OpenBadgeCredential"]);
    expect(credential.issuer).toMatchObject({ id: `did:web:localhost:orgs:${organizationId}`, type: ["Profile"] });
    expect(credential.awardedDate).toBe("2026-03-14T00:00:00Z");
    const subject = credential.credentialSubject;
    expect(subject.achievement).toMatchObject({ name: "Teamwork Award", achievementType: "CertificateOfCompletion" });
    expect(subject.identifier[0]).toMatchObject({ type: "IdentityObject", hashed: true, identityType: "emailAddress" });
    // Never the plain address.
    expect(JSON.stringify(credential)).not.toContain(member.email);
    expect(credential.evidence).toBeUndefined();
    expect(credential.proof).toEqual([
      expect.objectContaining({
        type: "DataIntegrityProof",
        cryptosuite: "eddsa-rdfc-2022",
        proofPurpose: "assertionMethod",
      }),
    ]);
    expect(await dccVerify(credential)).toMatchObject(verified);
    expect((await verifyPage(credential)).verdict).toBe("Valid");
  });

  it("fails verification when any signed part is changed", async () => {
    const { credentialId } = await issuedCredential();
    const original = await credentialJson(credentialId);
    const tampers: Record<string, (c: Credential) => void> = {
      issuer: (c) => (c.issuer.name = "Someone Else Ltd"),
      subject: (c) => (c.credentialSubject.identifier[0].identityHash = `sha256$${"0".repeat(64)}`),
      "achievement name": (c) => (c.credentialSubject.achievement.name = "Teamwork Awarf"),
      date: (c) => (c.awardedDate = "2020-03-14T00:00:00Z"),
      proof: (c) => (c.proof[0].created = "2020-01-01T00:00:00Z"),
    };
    for (const [part, tamper] of Object.entries(tampers)) {
      const changed = structuredClone(original);
      tamper(changed);
      const result = await dccVerify(changed);
      expect(result.signature, part).toBe(false);
      expect((await verifyPage(changed)).verdict, part).toBe("Invalid");
    }
  });

  it("verifies as revoked after the issuing admin revokes it, and leaves the passport", async () => {
    const { admin, member, credentialId } = await issuedCredential({ title: "Revocable" });
    expect(await (await get(`/passport/${member.id}`)).text()).toContain("Revocable");
    const response = await revoke(admin.cookie, credentialId);
    expect(response.status).toBe(302);
    expect(toastFrom(response)?.title).toBe("Credential revoked");
    const credential = await credentialJson(credentialId);
    const result = await dccVerify(credential);
    expect(result.signature).toBe(true);
    expect(result.notRevoked).toBe(false);
    expect((await verifyPage(credential)).verdict).toBe("Revoked");
    expect(await (await get(`/credentials/${credentialId}`)).text()).toContain("Revoked");
    expect(await (await get(`/passport/${member.id}`)).text()).not.toContain("Revocable");
    // (Its own passport's notification tells the member what was revoked; the list has no card.)
    expect(await (await get("/passport", member.cookie)).text()).not.toContain(">Revocable</h3>");
  });

  it("keeps one cached copy of a status list whatever the query, and a revocation replaces it", async () => {
    const { admin, credentialId } = await issuedCredential({ title: "Listed" });
    const listUrl = (await credentialJson(credentialId)).credentialStatus!.statusListCredential as string;
    const fetchList = async (query: string) => {
      const response = await SELF.fetch(`${listUrl}${query}`);
      expect(response.status).toBe(200);
      const list = (await response.json()) as { credentialSubject: { encodedList: string } };
      return {
        roundTrips: Number(response.headers.get("X-D1-Round-Trips")),
        encoded: list.credentialSubject.encodedList,
      };
    };
    const first = await fetchList("");
    // Stored in the background: wait until the plain URL is served from the cache.
    for (let attempt = 0; attempt < 20 && (await fetchList("")).roundTrips > 0; attempt++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    // Another query string is the same document: no D1 read, no re-signing.
    for (const query of ["?fresh=1", "?v=2&x=y", "?"])
      expect(await fetchList(query)).toEqual({ ...first, roundTrips: 0 });

    expect((await revoke(admin.cookie, credentialId)).status).toBe(302);
    const after = await fetchList("?fresh=3");
    expect(after.roundTrips).toBeGreaterThan(0);
    expect(after.encoded).not.toBe(first.encoded);
  });

  it("refuses revocation by anyone but an admin of the issuing organisation", async () => {
    const { member, credentialId } = await issuedCredential();
    const { admin: otherAdmin } = await createOrganisation({ adminName: "Otto Other", name: "Other Org" });
    for (const cookie of [member.cookie, otherAdmin.cookie]) {
      expect((await revoke(cookie, credentialId)).status).toBe(403);
    }
    expect((await revoke("", credentialId)).status).toBe(302); // to sign-in
    expect(await dccVerify(await credentialJson(credentialId))).toMatchObject(verified);
  });

  it("keeps old credentials valid after a key rotation", async () => {
    const { admin, member, organizationId, credentialId } = await issuedCredential({ title: "Before rotation" });
    const db = createDb(env.DB);
    await rotateKey(db, env.SESSION_SECRET, organizationId, didOf("localhost", organizationId));
    const after = await credentialOf(await giveAndAccept(admin.cookie, member.cookie, member.id, "After rotation"));
    const [old, fresh] = [await credentialJson(credentialId), await credentialJson(after)];
    expect(old.proof[0].verificationMethod).toMatch(/#key-1$/);
    expect(fresh.proof[0].verificationMethod).toMatch(/#key-2$/);
    const did = await (
      await SELF.fetch(`${ORIGIN}/orgs/${organizationId}/did.json`)
    ).json<{ assertionMethod: string[] }>();
    expect(did.assertionMethod).toHaveLength(2);
    expect(await dccVerify(old)).toMatchObject(verified);
    expect(await dccVerify(fresh)).toMatchObject(verified);
  });

  it("still verifies when the organisation is deleted", async () => {
    const { organizationId, credentialId } = await issuedCredential();
    const credential = await credentialJson(credentialId);
    await env.DB.prepare("delete from organizations where id = ?").bind(organizationId).run();
    expect((await SELF.fetch(`${ORIGIN}/orgs/${organizationId}/did.json`)).status).toBe(200);
    expect((await SELF.fetch(credential.credentialStatus.statusListCredential)).status).toBe(200);
    expect(await dccVerify(credential)).toMatchObject(verified);
  });

  it("revokes and forgets a purged account's credentials", async () => {
    const { member, credentialId } = await issuedCredential();
    const credential = await credentialJson(credentialId);
    await purgeUser({ db: createDb(env.DB), media: env.MEDIA, env }, member.id);
    const result = await dccVerify(credential);
    expect(result.signature).toBe(true);
    expect(result.notRevoked).toBe(false);
    const row = await env.DB.prepare("select json, user_id from credentials where id = ?").bind(credentialId).first();
    expect(row).toEqual({ json: null, user_id: null });
    expect(await (await get(`/credentials/${credentialId}`)).text()).toContain("Revoked");
  });

  it("serves DID documents, status lists and credential JSON to any origin, without cookies", async () => {
    const { admin, organizationId, credentialId } = await issuedCredential();
    const credential = await credentialJson(credentialId);
    const urls = [
      `${ORIGIN}/orgs/${organizationId}/did.json`,
      credential.credentialStatus.statusListCredential,
      `${ORIGIN}/credentials/${credentialId}`,
      `${ORIGIN}/credentials/${credentialId}/download`,
    ];
    for (const url of urls) {
      const response = await SELF.fetch(url, {
        headers: { Accept: "application/ld+json", Origin: "https://wallet.example", Cookie: admin.cookie },
      });
      expect(response.status, url).toBe(200);
      expect(response.headers.get("Access-Control-Allow-Origin"), url).toBe("*");
      expect(response.headers.get("Set-Cookie"), url).toBeNull();
      await response.json();
    }
    const preflight = await SELF.fetch(urls[0]!, {
      method: "OPTIONS",
      headers: { Origin: "https://wallet.example", "Access-Control-Request-Method": "GET" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("Access-Control-Allow-Origin")).toBe("*");
    const download = await SELF.fetch(urls[3]!);
    expect(download.headers.get("Content-Disposition")).toBe(`attachment; filename="credential-${credentialId}.json"`);
    expect(download.headers.get("Content-Type")).toBe("application/vc");
    // A browser asking for a page gets the human page.
    const page = await get(`/credentials/${credentialId}`);
    expect(page.headers.get("Content-Type")).toContain("text/html");
    expect(await page.text()).toContain("Valid");
  });

  it.each([
    ["a private passport", "update profiles set is_public = 0 where id = ?"],
    ["an archived account", `update profiles set deleted_at = ${Date.now()} where id = ?`],
  ])("shows the achievement and its issuer but not the person's name for %s", async (_, hide) => {
    const { member, credentialId } = await issuedCredential({ title: "Discreet Award" });
    const page = async () => (await get(`/credentials/${credentialId}`)).text();
    const shown = await page();
    expect(shown).toContain("Rita Recipient");
    const issuer = /Issuer<\/dt><dd[^>]*>([^<]+)</.exec(shown)?.[1];
    expect(issuer).toMatch(/^Issuers /);
    await env.DB.prepare(hide).bind(member.id).run();
    const hidden = await page();
    expect(hidden).not.toContain("Rita Recipient");
    expect(hidden).toContain("Discreet Award");
    expect(hidden).toContain(issuer);
    expect(hidden).toMatch(/Status:(\s|<!--.*?-->|<[^>]+>)*Valid/);
  });

  it("shows the verified mark only with a credential", async () => {
    const { member } = await issuedCredential({ title: "Credentialed" });
    const html = await (await get(`/passport/${member.id}`)).text();
    // The achievement's, and the 'Member of …' entry's (decision 070).
    expect(html.match(/aria-label="Verified credential"/g)).toHaveLength(2);
  });

  it("reports a pasted non-credential and non-JSON plainly", async () => {
    const notJson = await postForm("/verify", { json: "not json" });
    expect(notJson.status).toBe(400);
    expect(await notJson.text()).toContain("This is not JSON.");
    expect((await verifyPage({ hello: "world" })).html).toContain("This is not a Verifiable Credential");
  });
});

describe("an acceptance whose credential cannot be signed at once (issue 43)", () => {
  const FREQUENT = createScheduledController({ scheduledTime: Date.now(), cron: FREQUENT_CRON });
  async function frequentCron() {
    const ctx = createExecutionContext();
    await worker.scheduled(FREQUENT, env, ctx);
    await waitOnExecutionContext(ctx);
  }
  const credentialDue = async (achievementId: string) =>
    (await env.DB.prepare("select credential_due as due from achievements where id = ?")
      .bind(achievementId)
      .first<{ due: string | null }>())!.due;

  it("stands, tells the person the credential is being prepared, and the cron signs it with their choice", async () => {
    expectConsoleError(/credential issuance failed/);
    const { admin, member } = await createOrganisationWithMember({ name: uniqueName("Late Signers") });
    const { achievementId } = await giveAchievement(admin.cookie, { userId: member.id, title: "Signed Later" });
    const accepted = await postForm(
      "/passport",
      { intent: "accept", achievementId: achievementId!, includeMedia: "on" },
      { cookie: member.cookie, headers: { "X-Inject-Fault": "sign" } },
    );
    expect(accepted.status).toBe(302);
    expect(toastFrom(accepted)).toMatchObject({
      title: "Achievement accepted",
      description: "Your credential is being prepared",
    });
    expect(await credentialDue(achievementId!)).toBe("with-media");
    await expect(credentialOf(achievementId!)).rejects.toThrow("no credential was issued");
    const own = await (await get("/passport", member.cookie)).text();
    expect(own).toContain("Your credential is being prepared");

    await frequentCron();
    expect(await credentialDue(achievementId!)).toBeNull();
    const credential = await credentialJson(await credentialOf(achievementId!));
    expect(credential.name).toBe("Signed Later");
    expect(await dccVerify(credential)).toMatchObject(verified);
    expect(await (await get("/passport", member.cookie)).text()).not.toContain("Your credential is being prepared");
    // Signed once: a second run finds nothing left to sign.
    await frequentCron();
    expect(await countRows("select count(*) as n from credentials where achievement_id = ?", achievementId)).toBe(1);
  });

  it("signs nothing for an achievement no longer accepted, and takes it off the queue", async () => {
    expectConsoleError(/credential issuance failed/);
    const { admin, member } = await createOrganisationWithMember({ name: uniqueName("Late Signers") });
    const { achievementId } = await giveAchievement(admin.cookie, { userId: member.id, title: "Gone Before" });
    await postForm(
      "/passport",
      { intent: "accept", achievementId: achievementId! },
      { cookie: member.cookie, headers: { "X-Inject-Fault": "sign" } },
    );
    expect(await credentialDue(achievementId!)).toBe("without-media");
    await env.DB.prepare("update achievements set status = 'rejected' where id = ?").bind(achievementId).run();
    await frequentCron();
    expect(await credentialDue(achievementId!)).toBeNull();
    expect(await countRows("select count(*) as n from credentials where achievement_id = ?", achievementId)).toBe(0);
  });
});

describe("acceptances at the same moment (decision 038)", () => {
  const credentialRows = async (achievementIds: string[]) =>
    (
      await env.DB.prepare(
        `select c.id, c.achievement_id as achievementId, c.status_list_id as statusListId, c.status_index as statusIndex,
                a.status from achievements a left join credentials c on c.achievement_id = a.id
         where a.id in (${achievementIds.map(() => "?").join(", ")})`,
      )
        .bind(...achievementIds)
        .all<{ id: string | null; achievementId: string; statusListId: string; statusIndex: number; status: string }>()
    ).results;

  async function offers(adminCookie: string, memberId: string, titles: string[]) {
    const ids = [];
    for (const title of titles) {
      const { response, achievementId } = await giveAchievement(adminCookie, { userId: memberId, title });
      expect(response.status).toBe(302);
      ids.push(achievementId!);
    }
    return ids;
  }

  const acceptAll = (memberCookie: string, achievementIds: string[]) =>
    Promise.all(
      achievementIds.map((achievementId) =>
        postForm("/passport", { intent: "accept", achievementId }, { cookie: memberCookie }),
      ),
    );

  /** Every achievement accepted with its own credential, each on its own status-list entry, each verifying. */
  async function expectEachIssuedOnItsOwnEntry(achievementIds: string[]) {
    const rows = await credentialRows(achievementIds);
    expect(rows.map((row) => row.status)).toEqual(achievementIds.map(() => "accepted"));
    expect(rows.every((row) => row.id)).toBe(true);
    const entries = new Set(rows.map((row) => `${row.statusListId}#${row.statusIndex}`));
    expect(entries.size).toBe(achievementIds.length);
    for (const row of rows) {
      const credential = await credentialJson(row.id!);
      expect(credential.credentialStatus.statusListIndex).toBe(String(row.statusIndex));
      expect(await dccVerify(credential)).toMatchObject(verified);
    }
  }

  it("gives each of an organisation's achievements accepted at once its own status-list entry", async () => {
    const { admin, member } = await issuedCredential();
    const achievementIds = await offers(admin.cookie, member.id, ["North", "East", "South", "West"]);
    const responses = await acceptAll(member.cookie, achievementIds);
    expect(responses.map((response) => toastFrom(response)?.title)).toEqual(
      achievementIds.map(() => "Achievement accepted"),
    );
    await expectEachIssuedOnItsOwnEntry(achievementIds);
  });

  it("registers one key when an organisation's first acceptances come at once", async () => {
    const { admin, member, organizationId } = await createOrganisationWithMember({
      adminName: "Ada Admin",
      memberName: "Rita Recipient",
      name: uniqueName("First Issuers"),
    });
    const achievementIds = await offers(admin.cookie, member.id, ["One", "Two", "Three"]);
    await acceptAll(member.cookie, achievementIds);
    await expectEachIssuedOnItsOwnEntry(achievementIds);
    const did = await (
      await SELF.fetch(`${ORIGIN}/orgs/${organizationId}/did.json`)
    ).json<{ assertionMethod: string[] }>();
    expect(did.assertionMethod).toHaveLength(1);
  });

  it("accepts a double submit at once only once: one credential, one notice to the giver", async () => {
    const { admin, member } = await createOrganisationWithMember({
      adminName: "Ada Admin",
      memberName: "Rita Recipient",
      name: uniqueName("Double"),
    });
    const [achievementId] = await offers(admin.cookie, member.id, ["Clicked Twice"]);
    const responses = await acceptAll(member.cookie, [achievementId!, achievementId!]);
    expect(responses.map((response) => toastFrom(response)?.title)).toEqual([
      "Achievement accepted",
      "Achievement accepted",
    ]);
    const credentials = await env.DB.prepare("select count(*) as n from credentials where achievement_id = ?")
      .bind(achievementId)
      .first<{ n: number }>();
    expect(credentials?.n).toBe(1);
    const notices = await env.DB.prepare(
      "select count(*) as n from notifications where user_id = ? and title = 'Achievement accepted'",
    )
      .bind(admin.id)
      .first<{ n: number }>();
    expect(notices?.n).toBe(1);
  });
});
