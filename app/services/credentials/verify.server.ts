import { Validator } from "@cfworker/json-schema";
import { outsideBudget, fetchOutside } from "#app/services/outside-web.server.ts";
import type { AppEnv } from "#app/utils/env.server.ts";
import { issuerIdentityOf } from "#app/utils/issuer-identity.ts";
import { findIssuerIdentity, verifiedNameTaken } from "#db/queries/organization-domains.ts";
import { organizationNameKey } from "#db/queries/organizations.ts";
import { checkDomainLinkage, didConfigurationUrl, linkedDomainsOf } from "./domain-linkage.server.ts";
import { VC_V2_CONTEXT } from "./contexts.server.ts";
import { proofOf, verifyProof, type JsonObject } from "./data-integrity.server.ts";
import {
  assertionKey,
  JSON_TYPES,
  parseDidWeb,
  resolveDid,
  resolveStatusList,
  type Lookup,
  type Resolver,
} from "./did-web.server.ts";
import { hostOf, type Issuing } from "./issuer.server.ts";
import { decodeList, isSet } from "./status-list.server.ts";
import achievementCredentialSchema from "./ob_v3p0_achievementcredential_schema.json";
import type { Check, CheckName, IssuerStanding, VerificationResult } from "./verification-result.ts";

/**
 * Checks a credential the way an outside verifier would: its shape (the official Open Badges 3.0
 * JSON Schema), the issuer's key from its did:web DID document, the signature, the status list
 * and the dates. Documents of this app's own origin are read from D1 (offline); another host's
 * through fetchOutside (the network in production only, decision 020), at most three per check,
 * each capped and timed. The status list is read only for a credential whose signature verified,
 * and only from the issuer's own host.
 */

// The schema is compiled once per isolate; @cfworker/json-schema needs no eval (Workers forbid it).
let schemaValidator: Validator | undefined;
const validator = () => (schemaValidator ??= new Validator(achievementCredentialSchema as object, "2019-09", false));
// An EndorsementCredential (decision 072) is checked against 1EdTech's own definition of it, a
// `$defs` entry of the same schema, made the top-level class as its published schema is. From a
// copy: a Validator writes each sub-schema's absolute URI into the object itself, so two
// validators sharing `$defs` would resolve the second one's references against the first's URI
// (an isolate that had checked an AchievementCredential then failed on every endorsement).
let endorsementValidator: Validator | undefined;
const endorsementSchemaValidator = () => (endorsementValidator ??= newEndorsementValidator());
function newEndorsementValidator() {
  const { $schema, $defs } = structuredClone(achievementCredentialSchema);
  const schema = {
    $schema,
    $id: "https://purl.imsglobal.org/spec/ob/v3p0/schema/json-ld/ob_v3p0_endorsementcredential_schema.json",
    ...$defs.EndorsementCredential,
    $defs,
  };
  return new Validator(schema as object, "2019-09", false);
}

const issuerIdOf = (document: JsonObject) =>
  typeof document.issuer === "string" ? document.issuer : ((document.issuer as JsonObject | undefined)?.id as string);

export async function verifyCredential(
  credential: unknown,
  resolver: Resolver,
  now = new Date(),
): Promise<VerificationResult> {
  const lookup: Lookup = { resolver, budget: outsideBudget(), didDocuments: new Map() };
  const checks: Check[] = [];
  const add = (name: CheckName, passed: boolean, detail: string) => checks.push({ name, passed, detail });
  // Revoked only when everything else holds: a tampered, revoked credential is simply invalid.
  // Expired only when its validity alone ended (decision 071): a genuine credential past its `validUntil`.
  const result = (revoked = false, issuer?: IssuerStanding): VerificationResult => ({
    verdict: checks.every((check) => check.passed)
      ? "Valid"
      : revoked && checks.every((check) => check.passed || check.name === "Status")
        ? "Revoked"
        : checks.every((check) => check.passed || (check.name === "Dates" && check.detail.startsWith("Expired")))
          ? "Expired"
          : "Invalid",
    checks,
    summary: summaryOf(credential),
    ...(issuer ? { issuer } : {}),
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

  const endorsement = types.includes("EndorsementCredential");
  const schema = (endorsement ? endorsementSchemaValidator() : validator()).validate(document);
  add(
    "Schema",
    schema.valid,
    schema.valid
      ? `Matches the Open Badges 3.0 ${endorsement ? "EndorsementCredential" : "AchievementCredential"} schema.`
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
    const didDocument = await resolveDid(lookup, issuerId);
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

  // Nothing a forged credential names is fetched: its status list is read only once it verified.
  let revoked = false;
  let issuer: IssuerStanding | undefined;
  if (signed) {
    revoked = await checkStatus(lookup, document, issuerId, add);
    issuer = await issuerStanding(lookup, document, issuerId, now);
  } else add("Status", false, "Not checked, as the signature does not verify.");

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
          : `Expired on ${new Date(validUntil).toISOString().slice(0, 10)}.`,
  );
  return result(revoked, issuer);
}

/**
 * Who stands behind the issuer's name (decision 055), for a credential whose signature verified.
 * One of ours: the domain its organisation proved by DNS (checked daily), read from D1 with no
 * outside fetch. Another host's: each domain its DID document lists as LinkedDomains, confirmed
 * by that domain's did-configuration.json (DIF Well Known DID Configuration), within the check's
 * budget of outside reads. A name equal to that of one of our verified issuers, with no domain
 * behind it, is marked.
 */
async function issuerStanding(
  lookup: Lookup,
  document: JsonObject,
  issuerId: string,
  now: Date,
): Promise<IssuerStanding> {
  const { issuing } = lookup.resolver;
  const own = ownOrganizationOf(issuing, issuerId);
  if (own) {
    const row = await findIssuerIdentity(issuing.db, own);
    return { identity: issuerIdentityOf(row ?? {}), domains: [] };
  }
  const didDocument = await resolveDid(lookup, issuerId);
  const listed = typeof didDocument === "string" ? [] : linkedDomainsOf(didDocument).slice(0, 5);
  const domains: IssuerStanding["domains"] = [];
  for (const domain of listed) {
    const linkage = await linkageOf(lookup, didDocument as JsonObject, issuerId, domain);
    domains.push({ domain, ...linkage });
  }
  const linked = domains.find((check) => check.linked)?.domain;
  const name = (document.issuer as JsonObject | undefined)?.name;
  const nameTaken =
    !linked && typeof name === "string" && (await verifiedNameTaken(issuing.db, organizationNameKey(name)));
  return {
    identity: {
      verifiedDomain: linked ? { domain: linked, checkedAt: now.toISOString() } : null,
      nameNotVerified: Boolean(nameTaken),
    },
    domains,
  };
}

/** Whether `domain`'s did-configuration.json links it to the issuer, read within the check's budget. */
export async function linkageOf(lookup: Lookup, didDocument: JsonObject, issuerId: string, domain: string) {
  const answer = await fetchOutside(lookup.resolver.outside, didConfigurationUrl(domain), {
    accept: JSON_TYPES,
    budget: lookup.budget,
  });
  if (!answer.ok)
    return { linked: false, detail: `${domain}'s did-configuration.json could not be read: ${answer.reason}.` };
  let configuration: unknown = null;
  try {
    configuration = JSON.parse(answer.body);
  } catch {
    // checkDomainLinkage says what is wrong with a document that is not one.
  }
  return checkDomainLinkage(configuration, issuerId, domain, async (method) => assertionKey(didDocument, method));
}

/** The id of one of this app's organisations, when `did` is its did:web. */
export function ownOrganizationOf(issuing: Issuing, did: string) {
  const parsed = parseDidWeb(did);
  if (typeof parsed === "string" || parsed.host !== hostOf(issuing.origin)) return null;
  return /^orgs:([0-9a-f-]{36})$/.exec(parsed.path.join(":"))?.[1] ?? null;
}

/** Returns whether the credential is revoked; adds the Status check. */
async function checkStatus(
  lookup: Lookup,
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
  const list = await resolveStatusList(lookup, entry.statusListCredential, issuerId);
  if (typeof list === "string") {
    add("Status", false, list);
    return false;
  }
  // The list must be the issuer's own, signed with a key of its DID document.
  const listProof = proofOf(list);
  const didDocument = issuerIdOf(list) === issuerId ? await resolveDid(lookup, issuerId) : null;
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
    validUntil: typeof document.validUntil === "string" ? document.validUntil : undefined,
  };
}

export function verifierFor(issuing: Issuing, environment: AppEnv["ENVIRONMENT"]): Resolver {
  return { issuing, outside: { db: issuing.db, env: { ENVIRONMENT: environment } } };
}
