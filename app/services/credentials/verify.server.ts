import { Validator } from "@cfworker/json-schema";
import { VC_V2_CONTEXT } from "./contexts.server.ts";
import { proofOf, publicKeyFromMultibase, verifyProof, type JsonObject } from "./data-integrity.server.ts";
import { didDocument, hostOf, statusListCredential, statusListUrl, type Issuing } from "./issuer.server.ts";
import { decodeList, isSet } from "./status-list.server.ts";
import achievementCredentialSchema from "./ob_v3p0_achievementcredential_schema.json";
import type { Check, CheckName, VerificationResult } from "./verification-result.ts";

/**
 * Checks a credential the way an outside verifier would: its shape (the official Open Badges 3.0
 * JSON Schema), the issuer's key from its did:web DID document, the signature, the status list
 * and the dates. Documents of this app's own origin are read from D1 (offline); another host's
 * are fetched only in production (decision 020).
 */

// The schema is compiled once per isolate; @cfworker/json-schema needs no eval (Workers forbid it).
let schemaValidator: Validator | undefined;
const validator = () => (schemaValidator ??= new Validator(achievementCredentialSchema as object, "2019-09", false));

const MAX_REMOTE_BYTES = 512 * 1024;

type Resolver = {
  issuing: Issuing;
  /** Whether documents of another host may be fetched (production only). */
  remote: boolean;
};

async function fetchJson(url: string): Promise<JsonObject | null> {
  const response = await fetch(url, {
    headers: { Accept: "application/did+json, application/ld+json, application/json" },
    signal: AbortSignal.timeout(5000),
    redirect: "error",
  });
  if (!response.ok) return null;
  const text = await response.text();
  if (text.length > MAX_REMOTE_BYTES) return null;
  return JSON.parse(text) as JsonObject;
}

/** The did:web DID document of `did`: ours from D1, another host's over HTTPS when allowed. */
async function resolveDid(resolver: Resolver, did: string): Promise<JsonObject | string> {
  const match = /^did:web:([^:]+)((?::[^:]+)*)$/.exec(did);
  if (!match) return "The issuer is not a did:web identifier.";
  const host = decodeURIComponent(match[1]!);
  const path = match[2]!.split(":").filter(Boolean).map(decodeURIComponent);
  const own = /^orgs:([0-9a-f-]{36})$/.exec(path.join(":"));
  if (host === hostOf(resolver.issuing.origin)) {
    const document = own ? await didDocument(resolver.issuing, own[1]!) : null;
    return document ?? "The issuer's DID document was not found.";
  }
  if (!resolver.remote) return `The issuer's DID document on ${host} is not fetched here (production only).`;
  const url = `https://${host}/${path.length ? path.join("/") : ".well-known"}/did.json`;
  return (await fetchJson(url).catch(() => null)) ?? `The issuer's DID document could not be fetched from ${host}.`;
}

async function resolveStatusList(resolver: Resolver, url: string): Promise<JsonObject | string> {
  const prefix = statusListUrl(resolver.issuing.origin, "");
  if (url.startsWith(prefix)) {
    return (await statusListCredential(resolver.issuing, url.slice(prefix.length))) ?? "The status list was not found.";
  }
  if (!resolver.remote || !url.startsWith("https://")) return "The status list of another host is not fetched here.";
  return (await fetchJson(url).catch(() => null)) ?? "The status list could not be fetched.";
}

/** The public key behind a proof's verification method, when the DID document lists it for assertions. */
export function assertionKey(didDocument: JsonObject, verificationMethod: string) {
  const listed = ([] as unknown[]).concat(didDocument.assertionMethod ?? []);
  const allowed = listed.some((entry) =>
    typeof entry === "string" ? entry === verificationMethod : (entry as JsonObject)?.id === verificationMethod,
  );
  const methods = ([] as unknown[]).concat(didDocument.verificationMethod ?? [], listed) as JsonObject[];
  const method = methods.find((entry) => typeof entry === "object" && entry?.id === verificationMethod);
  if (!allowed || !method || method.type !== "Multikey" || typeof method.publicKeyMultibase !== "string") return null;
  return publicKeyFromMultibase(method.publicKeyMultibase);
}

const issuerIdOf = (document: JsonObject) =>
  typeof document.issuer === "string" ? document.issuer : ((document.issuer as JsonObject | undefined)?.id as string);

export async function verifyCredential(
  credential: unknown,
  resolver: Resolver,
  now = new Date(),
): Promise<VerificationResult> {
  const checks: Check[] = [];
  const add = (name: CheckName, passed: boolean, detail: string) => checks.push({ name, passed, detail });
  // Revoked only when everything else holds: a tampered, revoked credential is simply invalid.
  const result = (revoked = false): VerificationResult => ({
    verdict: checks.every((check) => check.passed)
      ? "Valid"
      : revoked && checks.every((check) => check.passed || check.name === "Status")
        ? "Revoked"
        : "Invalid",
    checks,
    summary: summaryOf(credential),
  });

  const document = credential as JsonObject;
  const types = ([] as unknown[]).concat(document?.type ?? []);
  const contexts = ([] as unknown[]).concat(document?.["@context"] ?? []);
  if (
    !document ||
    typeof document !== "object" ||
    Array.isArray(document) ||
    contexts[0] !== VC_V2_CONTEXT ||
    !types.includes("VerifiableCredential")
  ) {
    add("Format", false, "This is not a Verifiable Credential (VC Data Model 2.0).");
    return result();
  }
  add("Format", true, "A Verifiable Credential (VC Data Model 2.0).");

  const schema = validator().validate(document);
  add(
    "Schema",
    schema.valid,
    schema.valid
      ? "Matches the Open Badges 3.0 AchievementCredential schema."
      : `Does not match the Open Badges 3.0 schema: ${schema.errors
          .slice(-1)
          .map((error) => `${error.instanceLocation} ${error.error}`)
          .join("; ")}`,
  );

  const proof = proofOf(document);
  const issuerId = issuerIdOf(document);
  let publicKey: Uint8Array | null = null;
  if (!proof || typeof issuerId !== "string" || !proof.verificationMethod.startsWith(`${issuerId}#`)) {
    add("Issuer key", false, "The credential has no eddsa-rdfc-2022 proof by its issuer.");
  } else {
    const didDocument = await resolveDid(resolver, issuerId);
    publicKey = typeof didDocument === "string" ? null : assertionKey(didDocument, proof.verificationMethod);
    add(
      "Issuer key",
      Boolean(publicKey),
      typeof didDocument === "string"
        ? didDocument
        : publicKey
          ? `Found in ${issuerId}.`
          : "The issuer's DID document does not list the signing key.",
    );
  }

  const signed = publicKey ? await verifyProof(document, publicKey) : false;
  add("Signature", signed, signed ? "The signature is valid." : "The signature does not match the credential.");

  const revoked = await checkStatus(resolver, document, issuerId, add);

  const validFrom = Date.parse(String(document.validFrom));
  const validUntil = document.validUntil === undefined ? Infinity : Date.parse(String(document.validUntil));
  const inDate = validFrom <= now.getTime() && now.getTime() < validUntil;
  add(
    "Dates",
    inDate,
    Number.isNaN(validFrom) || Number.isNaN(validUntil)
      ? "The validity dates are not valid dates."
      : validFrom > now.getTime()
        ? "Not valid yet."
        : inDate
          ? "Within its validity period."
          : "Expired.",
  );
  return result(revoked);
}

/** Returns whether the credential is revoked; adds the Status check. */
async function checkStatus(
  resolver: Resolver,
  document: JsonObject,
  issuerId: string,
  add: (name: CheckName, passed: boolean, detail: string) => void,
) {
  const entry = ([] as unknown[]).concat(document.credentialStatus ?? [])[0] as JsonObject | undefined;
  if (!entry) {
    add("Status", true, "The credential has no status list; it cannot be revoked.");
    return false;
  }
  const index = Number(entry.statusListIndex);
  if (
    entry.type !== "BitstringStatusListEntry" ||
    typeof entry.statusListCredential !== "string" ||
    !Number.isInteger(index)
  ) {
    add("Status", false, "The status entry is not a Bitstring Status List entry.");
    return false;
  }
  const list = await resolveStatusList(resolver, entry.statusListCredential);
  if (typeof list === "string") {
    add("Status", false, list);
    return false;
  }
  // The list must be the issuer's own, signed with a key of its DID document.
  const listProof = proofOf(list);
  const didDocument = issuerIdOf(list) === issuerId ? await resolveDid(resolver, issuerId) : null;
  const listKey =
    didDocument && typeof didDocument !== "string" && listProof
      ? assertionKey(didDocument, listProof.verificationMethod)
      : null;
  if (!listKey || !(await verifyProof(list, listKey))) {
    add("Status", false, "The status list is not signed by the issuer.");
    return false;
  }
  const bits = await decodeList(String((list.credentialSubject as JsonObject | undefined)?.encodedList ?? ""));
  if (!bits || index < 0 || index >= bits.length * 8) {
    add("Status", false, "The status list cannot be read.");
    return false;
  }
  const revoked = isSet(bits, index);
  add("Status", !revoked, revoked ? "Revoked by the issuer." : "Not revoked.");
  return revoked;
}

function summaryOf(credential: unknown): VerificationResult["summary"] {
  const document = credential as JsonObject | null;
  if (!document || typeof document !== "object") return undefined;
  const issuer = document.issuer as JsonObject | string | undefined;
  const subject = document.credentialSubject as JsonObject | undefined;
  const achievement = subject?.achievement as JsonObject | undefined;
  return {
    issuer: String((typeof issuer === "object" ? (issuer?.name ?? issuer?.id) : issuer) ?? "Unknown issuer"),
    achievement: String(achievement?.name ?? document.name ?? "Unknown achievement"),
    validFrom: String(document.validFrom ?? ""),
    awardedDate: typeof document.awardedDate === "string" ? document.awardedDate : undefined,
  };
}

export function verifierFor(issuing: Issuing, environment: string): Resolver {
  return { issuing, remote: environment === "production" };
}
