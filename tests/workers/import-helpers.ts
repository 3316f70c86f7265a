import { env } from "cloudflare:test";
import { inject } from "vitest";
import type { CredentialRequest, JwtAlgorithm, OpenBadge2Request } from "../../scripts/badges/outside-issuer.d.mts";
import { OB_CONTEXT, VC_V2_CONTEXT } from "#app/services/credentials/contexts.server.ts";
import { publicKeyMultibase, sign } from "#app/services/credentials/data-integrity.server.ts";
import { didConfigurationUrl, signedDomainLinkage } from "#app/services/credentials/domain-linkage.server.ts";
import { hashedEmail, issuing } from "#app/services/credentials/issuer.server.ts";
import { ed25519FromSeed } from "#app/services/credentials/keys.server.ts";
import { verifierFor } from "#app/services/credentials/verify.server.ts";
import { verifyImport } from "#app/services/imports/verify-import.server.ts";
import type { ImportSource } from "#app/services/imports/read-input.server.ts";
import type { Recipient } from "#app/services/imports/recipient.server.ts";
import { readEnv } from "#app/utils/env.server.ts";
import { createDb } from "#db/client.ts";
import { putDevWebDocument } from "#db/queries/dev-stand-ins.ts";
import type { Served } from "./credentials-helpers.ts";
import { postForm, postMultipart } from "./helpers.ts";

// Badges from other issuers (tests/workers/outside-issuer.ts), published where the app reads the
// web outside production (the /dev/web.json stand-in), and the import verifier run on them.

async function ask<T>(path: string, body: unknown): Promise<T> {
  const response = await fetch(`${inject("outsideIssuerUrl")}${path}`, { method: "POST", body: JSON.stringify(body) });
  if (!response.ok) throw new Error(await response.text());
  return (await response.json()) as T;
}

type Documents = Record<string, Served>;

/** Puts an issuer's documents on the stand-in web. */
export async function publish(documents: Documents) {
  const db = createDb(env.DB);
  for (const [url, served] of Object.entries(documents)) {
    await putDevWebDocument(db, { url, contentType: served.contentType, body: served.body });
  }
}

export async function outsideCredential(request: CredentialRequest) {
  const made = await ask<{
    credential: Record<string, unknown>;
    issuer: string;
    documents: Documents;
    revokedLater: Documents;
  }>("/credential", request);
  await publish(made.documents);
  return made;
}

export async function outsideJwt(request: {
  email?: string;
  validUntil?: string;
  signer?: "issuer" | "other";
  alg?: JwtAlgorithm;
  webHost?: string;
  claimedIssuer?: string | { id?: string; type?: readonly string[]; name: string };
}) {
  const made = await ask<{ token: string; issuer: string; documents: Documents; publicJwk: JsonWebKey }>(
    "/jwt",
    request,
  );
  await publish(made.documents);
  return made;
}
/** Whether `jose` accepts the token with `jwk` (by default, the Ed25519 did:key's own key). */
export const joseVerifies = (token: string, jwk?: JsonWebKey) =>
  ask<{ verified: boolean }>("/jwt-verify", { token, jwk });

export async function outsideOpenBadge2(request: OpenBadge2Request) {
  const made = await ask<{ assertion?: Record<string, unknown>; token?: string; documents: Documents }>(
    "/ob2",
    request,
  );
  await publish(made.documents);
  return made;
}

/** A PNG with `text` baked in: a grey square, or `onto` (1EdTech's published test image). */
export const bakedPng = async (text: string, compressed = false, onto?: "published") =>
  Uint8Array.from(
    atob(await ask<string>("/bake-png", { text, compressed, onto: onto && inject("publishedPng") })),
    (c) => c.charCodeAt(0),
  );
export const bakedSvg = (text: string, asVerify = false) => ask<string>("/bake-svg", { text, asVerify });

export const RECIPIENT_EMAIL = "rita.recipient@example.com";
export const asText = (value: unknown): ImportSource => ({
  kind: "text",
  text: typeof value === "string" ? value : JSON.stringify(value),
});
export const asFile = (bytes: Uint8Array | string, fileName = "badge"): ImportSource => ({
  kind: "file",
  bytes: typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes,
  fileName,
});

/** The import verifier as the app runs it outside production: the web is the stand-in. */
export function verifyAsImport(source: ImportSource, recipient: Partial<Recipient> = {}, now?: Date) {
  const resolver = verifierFor(issuing(createDb(env.DB), readEnv({ ...env }))!, "test");
  return verifyImport(source, {
    resolver,
    recipient: { addresses: [RECIPIENT_EMAIL], holderDids: [], ...recipient },
    now,
  });
}

const htmlDecode = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, "&");

/** /passport/import's 'Check', as a browser without JavaScript posts it: the page, and the nonce 'Add' needs. */
export async function checkOnPage(cookie: string, fields: { source?: string; file?: File }) {
  const form = new FormData();
  if (fields.file) form.append("file", fields.file);
  form.append("source", fields.source ?? "");
  form.append("intent", "check-import");
  const response = await postMultipart("/passport/import", form, { cookie });
  const html = htmlDecode(await response.text());
  return { response, html, nonce: /name="nonce" value="([0-9a-f-]{36})"/.exec(html)?.[1] ?? null };
}

/** 'Add to passport' for the check that answered `nonce`. */
export const addOnPage = (cookie: string, nonce: string) =>
  postForm("/passport/import", { intent: "add-import", nonce }, { cookie });

export { htmlDecode };

const served = (body: unknown) => ({ status: 200, contentType: "application/json", body: JSON.stringify(body) });

/** An issuer on `host` (did:web), its signing key and its DID document, listing `linkedDomains` (LinkedDomains). */
export async function webIssuer(host: string, linkedDomains: string[] = []) {
  const did = `did:web:${host}`;
  const { privateKey, publicKey } = await ed25519FromSeed(crypto.getRandomValues(new Uint8Array(32)));
  const key = { privateKey, verificationMethod: `${did}#key-1` };
  const didDocument = {
    "@context": ["https://www.w3.org/ns/did/v1", "https://w3id.org/security/multikey/v1"],
    id: did,
    verificationMethod: [
      {
        id: key.verificationMethod,
        type: "Multikey",
        controller: did,
        publicKeyMultibase: publicKeyMultibase(publicKey),
      },
    ],
    assertionMethod: [key.verificationMethod],
    ...(linkedDomains.length
      ? {
          service: [
            {
              id: `${did}#linked-domains`,
              type: "LinkedDomains",
              serviceEndpoint: { origins: linkedDomains.map((domain) => `https://${domain}`) },
            },
          ],
        }
      : {}),
  };
  return { did, key, didDocument, documents: { [`https://${host}/.well-known/did.json`]: served(didDocument) } };
}

/**
 * An Open Badges 3.0 credential for `email` from a did:web issuer on `host` named `issuerName`,
 * signed here (eddsa-rdfc-2022), its DID document listing `linkedDomains` (LinkedDomains), each
 * domain's did-configuration.json linking back to it, or (`linkedBy: "another DID"`) to someone
 * else; all published on the stand-in web (issue 43).
 */
export async function webIssuerCredential({
  email,
  host,
  issuerName = "Example Web Issuer",
  linkedDomains = [],
  linkedBy = "this DID",
}: {
  email: string;
  host: string;
  issuerName?: string;
  linkedDomains?: string[];
  linkedBy?: "this DID" | "another DID";
}) {
  const issuer = await webIssuer(host, linkedDomains);
  const stranger = linkedBy === "another DID" ? await webIssuer(`stranger.${host}`) : issuer;
  const documents: Documents = { ...issuer.documents };
  for (const domain of linkedDomains) {
    documents[didConfigurationUrl(domain)] = served(await signedDomainLinkage(stranger.did, stranger.key, domain));
  }
  const name = "Linked Domain Award";
  const credential = await sign(
    {
      "@context": [VC_V2_CONTEXT, OB_CONTEXT],
      id: `urn:uuid:${crypto.randomUUID()}`,
      type: ["VerifiableCredential", "OpenBadgeCredential"],
      issuer: { id: issuer.did, type: ["Profile"], name: issuerName },
      validFrom: "2024-05-01T00:00:00Z",
      name,
      credentialSubject: {
        type: ["AchievementSubject"],
        identifier: [await hashedEmail(email)],
        achievement: {
          id: `https://${host}/achievements/1`,
          type: ["Achievement"],
          name,
          description: "Awarded by an issuer on its own domain.",
          criteria: { narrative: "Did the work." },
        },
      },
    },
    issuer.key,
    new Date(),
  );
  await publish(documents);
  return { credential, did: issuer.did };
}
