import { env, SELF } from "cloudflare:test";
import { inject } from "vitest";
import { edgeCache } from "#app/utils/passport-cache.server.ts";
import { ORIGIN, postForm } from "./helpers.ts";
import { createOrganisationWithMember, giveAchievement, uniqueName } from "./factories.ts";

/** An organisation (admin), one approved member, and the member's accepted achievement. */
export async function issuedCredential({ title = "Teamwork Award" }: { title?: string } = {}) {
  const { admin, member, organizationId } = await createOrganisationWithMember({
    adminName: "Ada Admin",
    memberName: "Rita Recipient",
    name: uniqueName("Issuers"),
  });
  const achievementId = await giveAndAccept(admin.cookie, member.cookie, member.id, title);
  const credentialId = await credentialOf(achievementId);
  return { admin, member, organizationId, achievementId, credentialId };
}

export async function giveAndAccept(adminCookie: string, memberCookie: string, memberId: string, title: string) {
  const { response: given, achievementId } = await giveAchievement(adminCookie, {
    userId: memberId,
    type: "training",
    date: "2026-03-14",
    title,
  });
  if (given.status !== 302) throw new Error(`giving answered ${given.status}`);
  const id = achievementId!;
  const accepted = await postForm("/passport", { intent: "accept", achievementId: id }, { cookie: memberCookie });
  if (accepted.status !== 302) throw new Error(`accepting answered ${accepted.status}`);
  return id;
}

export async function credentialOf(achievementId: string) {
  const row = await env.DB.prepare("select id from credentials where achievement_id = ?")
    .bind(achievementId)
    .first<{ id: string }>();
  if (!row) throw new Error("no credential was issued");
  return row.id;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests reach into the credential freely.
export type Credential = Record<string, any>;

/** The credential as a verifier downloads it. */
export async function credentialJson(credentialId: string) {
  const response = await SELF.fetch(`${ORIGIN}/credentials/${credentialId}`, {
    headers: { Accept: "application/ld+json" },
  });
  if (response.status !== 200) throw new Error(`credential answered ${response.status}`);
  return (await response.json()) as Credential;
}

export type Served = { status: number; contentType: string; body: string };

async function served(url: string): Promise<Served> {
  const response = await SELF.fetch(url, { headers: { Accept: "application/json" } });
  return {
    status: response.status,
    contentType: response.headers.get("Content-Type") ?? "application/json",
    body: await response.text(),
  };
}

/** The did:web URL a resolver fetches (always https), and where the app serves it here. */
function didUrls(did: string) {
  const [, , host, ...path] = did.split(":");
  const pathname = `/${path.join("/")}/did.json`;
  return { resolved: `https://${decodeURIComponent(host!)}${pathname}`, local: `${ORIGIN}${pathname}` };
}

/** What an outside resolver of one of our did:web DIDs gets: the app's own answer, at its https URL. */
export async function didDocumentServed(did: string): Promise<Record<string, Served>> {
  const { resolved, local } = didUrls(did);
  return { [resolved]: await served(local) };
}

/**
 * Verifies with the Digital Credentials Consortium's verifier-core (tests/workers/dcc-verifier.ts),
 * its fetch answered from the app's own responses for the issuer's DID document and status list.
 */
export async function dccVerify(credential: Credential) {
  const issuer = typeof credential.issuer === "string" ? credential.issuer : credential.issuer?.id;
  const documents: Record<string, Served> =
    typeof issuer === "string" && issuer.startsWith("did:web:") ? await didDocumentServed(issuer) : {};
  const listUrl = credential.credentialStatus?.statusListCredential;
  if (typeof listUrl === "string" && listUrl.startsWith(ORIGIN)) {
    // A verifier must see a revocation at once: skip the edge cache's copy.
    await edgeCache().delete(listUrl);
    documents[listUrl] = await served(listUrl);
  }
  return dccVerifyWith(credential, documents);
}

/** verifier-core on `credential`, its fetch answered only from `documents` (an outside issuer's, say). */
export async function dccVerifyWith(credential: Credential, documents: Record<string, Served>) {
  const response = await fetch(`${inject("dccVerifierUrl")}/verify`, {
    method: "POST",
    body: JSON.stringify({ credential, documents }),
  });
  if (!response.ok) throw new Error(await response.text());
  const { result } = (await response.json()) as { result: DccResult };
  return summarize(result);
}

type DccResult = {
  errors?: { name: string; message: string }[];
  log?: { id: string; valid: boolean }[];
  additionalInformation?: { id: string; results?: { result: { valid: boolean } }[] | string }[];
};

/** verifier-core's answer reduced to what the issue asks: signature, revocation, schema. */
function summarize(result: DccResult) {
  const step = (id: string) => result.log?.find((entry) => entry.id === id)?.valid;
  const schema = result.additionalInformation?.find((entry) => entry.id === "schema_check")?.results;
  return {
    fatal: result.errors?.map((error) => error.name) ?? [],
    signature: step("valid_signature") === true,
    // `verified: true` does not mean "not revoked": read the status step itself.
    notRevoked: step("revocation_status") === true,
    notExpired: step("expiration") !== false,
    schema: Array.isArray(schema) && schema.length > 0 && schema.every((entry) => entry.result.valid),
    raw: result,
  };
}

export const verified = { fatal: [], signature: true, notRevoked: true, notExpired: true, schema: true };
