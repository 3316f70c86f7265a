import { DATA_INTEGRITY_V2_CONTEXT, DID_CONFIGURATION_CONTEXT, VC_V1_CONTEXT } from "./contexts.server.ts";
import { proofOf, sign, verifyProof, xsdDateTime, type JsonObject } from "./data-integrity.server.ts";
import { organizationDid, type Issuing } from "./issuer.server.ts";
import { currentSigningKey } from "./keys.server.ts";

/**
 * DIF Well Known DID Configuration (identity.foundation/.well-known/resources/did-configuration/):
 * the organisation publishes, at https://{domain}/.well-known/did-configuration.json, a
 * DomainLinkageCredential that its DID signs about that origin; with the LinkedDomains service in
 * its DID document, anyone can confirm that the domain's owner and the DID's are the same.
 *
 * Choices (issue 29):
 * - VC Data Model 1.1, not 2.0. The spec requires `issuanceDate` and `expirationDate` (and forbids
 *   `id`), and @sphereon/wellknown-dids-client refuses a credential without them; VC 2.0's context
 *   does not define those two terms, so a 2.0 credential carrying them cannot be canonicalised, and
 *   one with validFrom/validUntil instead is not a DomainLinkageCredential by the spec. VC 1.1's
 *   context does not define DataIntegrityProof, so the credential also names the Data Integrity v2
 *   context, as the eddsa-rdfc-2022 cryptosuite asks of a VC 1.1 document. Every context is bundled
 *   (contexts.server.ts); nothing is fetched.
 * - Valid for one year from when it is made. The organisation copies the file to its own server
 *   by hand, so a short validity would make the link lapse silently unless someone remembers to
 *   re-publish; a long one would outlive the organisation's hold on the domain for outside
 *   verifiers, who have only this date and the DID document to go by. A year is the renewal rhythm
 *   a domain's owner already keeps (registration, certificates). Our own side needs no expiry: the
 *   daily DNS re-check takes a lapsed domain out of the DID document, and a retired key leaves
 *   assertionMethod, so what it signed stops verifying.
 * - Only Data Integrity proofs are checked: a JWT entry (the spec's other proof format) is
 *   reported as not supported, never decoded as proof of anything.
 */

const VALIDITY_YEARS = 1;
// Each signature costs about 10 ms of CPU: a resource that names this DID over and over is
// checked only this far.
const MAX_CREDENTIALS_CHECKED = 3;

type Key = (verificationMethod: string) => Promise<Uint8Array | null>;
export type DomainLinkage = { linked: boolean; detail: string };

/** The DID Configuration resource linking `https://{domain}` to the organisation's did:web. */
export async function domainLinkageConfiguration(
  issuing: Issuing,
  organizationId: string,
  domain: string,
  now = new Date(),
) {
  const did = organizationDid(issuing, organizationId);
  const key = await currentSigningKey(issuing.db, issuing.secret, organizationId, did);
  return signedDomainLinkage(did, key, domain, now);
}

/** The resource for any DID and its signing key (an organisation's, or another host's in tests). */
export async function signedDomainLinkage(
  did: string,
  key: { privateKey: CryptoKey; verificationMethod: string },
  domain: string,
  now = new Date(),
) {
  const expires = new Date(now);
  expires.setUTCFullYear(expires.getUTCFullYear() + VALIDITY_YEARS);
  const credential = await sign(
    {
      "@context": [VC_V1_CONTEXT, DID_CONFIGURATION_CONTEXT, DATA_INTEGRITY_V2_CONTEXT],
      type: ["VerifiableCredential", "DomainLinkageCredential"],
      issuer: did,
      issuanceDate: xsdDateTime(now),
      expirationDate: xsdDateTime(expires),
      credentialSubject: { id: did, origin: originOf(domain) },
    },
    key,
    now,
  );
  return { "@context": DID_CONFIGURATION_CONTEXT, linked_dids: [credential] };
}

const originOf = (domain: string) => `https://${domain}`;

/** Where a domain publishes its DID Configuration resource (the spec's well-known path). */
export const didConfigurationUrl = (domain: string) => `${originOf(domain)}/.well-known/did-configuration.json`;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const idOf = (value: unknown) => (typeof value === "string" ? value : isObject(value) ? value.id : undefined);

/**
 * Whether `configuration`, the did-configuration.json fetched from `domain`, links that domain to
 * `did` as the DIF spec's verification says: one of its DomainLinkageCredentials has `did` as
 * issuer and subject, `https://{domain}` as origin, is in date, and carries a valid signature by a
 * key that `resolveKey` finds among the DID document's assertion methods (null otherwise).
 * Credentials about other DIDs are passed over. Any JSON may come in; nothing throws.
 */
export async function checkDomainLinkage(
  configuration: unknown,
  did: string,
  domain: string,
  resolveKey: Key,
  now = new Date(),
): Promise<DomainLinkage> {
  const no = (problem: string) => ({ linked: false, detail: `${domain}'s DID configuration ${problem}.` });
  if (!isObject(configuration) || !("@context" in configuration) || !Array.isArray(configuration.linked_dids))
    return no("is not a DID configuration resource (it needs @context and a linked_dids list)");
  const entries: unknown[] = configuration.linked_dids;
  const ours = entries.filter(
    (entry) => isObject(entry) && (idOf(entry.issuer) === did || idOf(entry.credentialSubject) === did),
  ) as JsonObject[];
  const failures: string[] = [];
  for (const credential of ours.slice(0, MAX_CREDENTIALS_CHECKED)) {
    const failure = await credentialProblem(credential, did, domain, resolveKey, now);
    if (!failure) return { linked: true, detail: `${domain} links to this issuer.` };
    failures.push(failure);
  }
  if (failures[0]) return { linked: false, detail: `${domain}'s domain linkage credential ${failures[0]}.` };
  if (entries.some((entry) => typeof entry === "string" && jwtIssuer(entry) === did))
    return no("names this issuer only in a JSON Web Token, a proof format this verifier does not check");
  return no("does not name this issuer");
}

/** What makes one DomainLinkageCredential fail to link `did` and `domain`, or null when it links them. */
async function credentialProblem(
  credential: JsonObject,
  did: string,
  domain: string,
  resolveKey: Key,
  now: Date,
): Promise<string | null> {
  const types = ([] as unknown[]).concat(credential.type);
  if (!types.includes("DomainLinkageCredential")) return "is not of type DomainLinkageCredential";
  const subject = isObject(credential.credentialSubject) ? credential.credentialSubject : {};
  if (idOf(credential.issuer) !== did || subject.id !== did)
    return "does not name this issuer as both its issuer and its subject";
  if (subject.origin !== originOf(domain))
    return typeof subject.origin === "string" ? `is for ${subject.origin}, not ${originOf(domain)}` : "names no origin";
  const issued = dateOf(credential.issuanceDate);
  const expires = dateOf(credential.expirationDate);
  if (!issued || !expires) return "lacks a valid issuance or expiration date";
  if (issued > now) return `is not valid before ${day(issued)}`;
  if (expires <= now) return `expired on ${day(expires)}`;
  const proof = proofOf(credential);
  if (!proof) return "has no eddsa-rdfc-2022 proof (the only proof this verifier checks)";
  if (!proof.verificationMethod.startsWith(`${did}#`)) return "is signed with another DID's key";
  let key: Uint8Array | null;
  try {
    key = await resolveKey(proof.verificationMethod);
  } catch {
    return "could not be checked: the issuer's DID document could not be read";
  }
  if (!key) return "is signed with a key the issuer's DID document does not list for assertions";
  if (!(await verifyProof(credential, key))) return "has a signature that does not match";
  return null;
}

function dateOf(value: unknown) {
  if (typeof value !== "string") return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

const day = (date: Date) => date.toISOString().slice(0, 10);

/** The `iss` of a compact JWT, read without checking anything, or undefined. */
function jwtIssuer(token: string) {
  try {
    const payload = token.split(".")[1] ?? "";
    const json = atob(payload.replace(/-/g, "+").replace(/_/g, "/"));
    const claims: unknown = JSON.parse(json);
    return isObject(claims) ? claims.iss : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The domains (hosts) a DID document claims in its LinkedDomains services, each `serviceEndpoint`
 * an origin, a list of them, or `{ origins: [...] }` as the DIF spec allows. Anything that is not an
 * https origin is left out.
 */
export function linkedDomainsOf(didDocument: JsonObject): string[] {
  const domains = new Set<string>();
  for (const service of ([] as unknown[]).concat(didDocument.service ?? [])) {
    if (!isObject(service) || !([] as unknown[]).concat(service.type).includes("LinkedDomains")) continue;
    const endpoint = service.serviceEndpoint;
    const origins = isObject(endpoint) ? endpoint.origins : endpoint;
    for (const origin of ([] as unknown[]).concat(origins ?? [])) {
      const host = httpsOriginHost(origin);
      if (host) domains.add(host);
    }
  }
  return [...domains];
}

function httpsOriginHost(origin: unknown) {
  if (typeof origin !== "string" || !URL.canParse(origin)) return null;
  const url = new URL(origin);
  return url.protocol === "https:" && url.origin === origin.replace(/\/$/, "") ? url.host : null;
}
