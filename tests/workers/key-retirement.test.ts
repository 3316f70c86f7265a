import { env, SELF } from "cloudflare:test";
import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { issuing } from "#app/services/credentials/issuer.server.ts";
import { verifierFor, verifyCredential } from "#app/services/credentials/verify.server.ts";
import { readEnv } from "#app/utils/env.server.ts";
import { edgeCache } from "#app/utils/passport-cache.server.ts";
import { createDb } from "#db/client.ts";
import { retireKeyStatement } from "#db/queries/credential-keys.ts";
import { get, ORIGIN, postForm } from "./helpers.ts";
import {
  credentialJson,
  credentialOf,
  dccVerify,
  giveAndAccept,
  issuedCredential,
  verified,
  type Credential,
} from "./credentials-helpers.ts";

// Retiring a compromised credential key version (issue 29, decision 054): what it signed stops
// verifying, it is never signed with again, and what it signed is signed again on its next download.

/** Retires a version with the very statement `npm run credentials:retire-key` runs. */
const retire = (organizationId: string, version: number) =>
  env.DB.prepare(retireKeyStatement(organizationId, version, new Date())).run();

/** The app's own verifier, as /verify and the credential page run it. */
const verify = (credential: Credential) =>
  verifyCredential(
    credential,
    verifierFor(issuing(createDb(env.DB), readEnv(env as unknown as Record<string, unknown>))!, "test"),
  );

const keyVersion = (credential: Credential) =>
  Number(/#key-(\d+)$/.exec(credential.proof[0].verificationMethod as string)?.[1]);

async function didDocumentOf(organizationId: string) {
  const response = await SELF.fetch(`${ORIGIN}/orgs/${organizationId}/did.json`);
  return response.json<{
    assertionMethod: string[];
    verificationMethod: { id: string; publicKeyMultibase: string; revoked?: string }[];
  }>();
}

async function download(credentialId: string) {
  const response = await SELF.fetch(`${ORIGIN}/credentials/${credentialId}/download`);
  expect(response.status).toBe(200);
  return response.json<Credential>();
}

/** The status list as a verifier fetches it now (not this location's cached copy). */
async function statusList(credential: Credential) {
  const url = credential.credentialStatus.statusListCredential as string;
  await edgeCache().delete(url);
  return (await SELF.fetch(url)).json<Credential>();
}

describe("retiring a credential key version", () => {
  it("makes what it signed stop verifying, and takes it out of the DID document's assertionMethod", async () => {
    const { organizationId, credentialId } = await issuedCredential();
    const old = await credentialJson(credentialId);
    expect(keyVersion(old)).toBe(1);
    expect((await verify(old)).verdict).toBe("Valid");

    await retire(organizationId, 1);

    const result = await verify(old);
    expect(result.verdict).toBe("Invalid");
    expect(result.checks.find((check) => check.name === "Issuer key")).toMatchObject({ passed: false });
    // An outside verifier refuses it too.
    expect((await dccVerify(old)).signature).toBe(false);
    const did = await didDocumentOf(organizationId);
    expect(did.assertionMethod).not.toContain(old.proof[0].verificationMethod);
    // Still listed, marked revoked: anyone can see which key it was and since when.
    expect(did.verificationMethod.find((method) => method.id === old.proof[0].verificationMethod)).toMatchObject({
      revoked: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
    });
  });

  it("signs the credential again with the current key on its next download, once", async () => {
    const { organizationId, credentialId } = await issuedCredential();
    const old = await credentialJson(credentialId);
    const oldList = await statusList(old);
    expect(keyVersion(oldList)).toBe(1);
    await retire(organizationId, 1);

    const reissued = await download(credentialId);
    expect(keyVersion(reissued)).toBe(2);
    // The same credential: same id, subject, status entry and dates; only the proof is new.
    const { proof: _old, ...content } = old;
    const { proof: _new, ...reissuedContent } = reissued;
    expect(reissuedContent).toEqual(content);
    expect(await verify(reissued)).toMatchObject({ verdict: "Valid" });
    expect(await dccVerify(reissued)).toMatchObject(verified);
    expect((await didDocumentOf(organizationId)).assertionMethod).toEqual([`${old.issuer.id}#key-2`]);

    // Stored: the JSON answer, the page and the next download serve the same proof, signed once.
    expect((await credentialJson(credentialId)).proof).toEqual(reissued.proof);
    expect((await download(credentialId)).proof).toEqual(reissued.proof);
    const page = await (await get(`/credentials/${credentialId}`)).text();
    expect(page).toMatch(/Status:(\s|<!--.*?-->|<[^>]+>)*Valid/);

    // The status list it was checked against was signed again too, and still verifies.
    const list = await statusList(reissued);
    expect(keyVersion(list)).toBe(2);
    expect(list.credentialSubject.encodedList).toBe(oldList.credentialSubject.encodedList);
  });

  it("is never signed with again: the next issuance uses the next version", async () => {
    const { admin, member, organizationId } = await issuedCredential();
    await retire(organizationId, 1);
    const fresh = await credentialJson(
      await credentialOf(await giveAndAccept(admin.cookie, member.cookie, member.id, "After retirement")),
    );
    expect(keyVersion(fresh)).toBe(2);
    expect(await verify(fresh)).toMatchObject({ verdict: "Valid" });
    expect(await dccVerify(fresh)).toMatchObject(verified);
  });

  it("keeps revocation working: a revoked credential of a retired key is served revoked", async () => {
    const { admin, organizationId, credentialId } = await issuedCredential();
    await retire(organizationId, 1);
    const revoked = await postForm(
      "/dashboard/achievements",
      { intent: "revoke", credentialId },
      { cookie: admin.cookie },
    );
    expect(revoked.status).toBe(302);
    const reissued = await download(credentialId);
    expect(keyVersion(reissued)).toBe(2);
    expect((await verify(reissued)).verdict).toBe("Revoked");
    const outside = await dccVerify(reissued);
    expect([outside.signature, outside.notRevoked]).toEqual([true, false]);
  });

  it("puts credentials signed again in the owner's data export", async () => {
    const { member, organizationId, credentialId } = await issuedCredential();
    await retire(organizationId, 1);
    const response = await postForm("/settings/export", {}, { cookie: member.cookie });
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    const exported = JSON.parse(strFromU8(files[`credentials/${credentialId}.json`]!)) as Credential;
    expect(keyVersion(exported)).toBe(2);
    expect(await verify(exported)).toMatchObject({ verdict: "Valid" });
  });

  it("refuses what is not an organisation id or a key version (the statement binds no parameters)", () => {
    const id = crypto.randomUUID();
    for (const [organizationId, version] of [
      ["x' or '1'='1", 1],
      [id, 0],
      [id, 1.5],
      [id, Number.NaN],
    ] as const) {
      expect(() => retireKeyStatement(organizationId, version, new Date()), `${organizationId} ${version}`).toThrow();
    }
  });
});
