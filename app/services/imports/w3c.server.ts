import {
  ED25519_2020_CONTEXT,
  isKnownContext,
  VC_V1_CONTEXT,
  VC_V2_CONTEXT,
} from "#app/services/credentials/contexts.server.ts";
import { verifySignature, type JsonObject } from "#app/services/credentials/data-integrity.server.ts";
import { decodeJwt, keyOfDidKey, verifyJws, type JwsKey } from "#app/services/credentials/jws.server.ts";
import { statusListUrl } from "#app/services/credentials/issuer.server.ts";
import { statusListCredential } from "#app/services/credentials/issuer-documents.server.ts";
import { decodeList, isSet } from "#app/services/credentials/status-list.server.ts";
import { listedJwsKey, resolveDid, statusListElsewhere } from "#app/services/credentials/did-web.server.ts";
import { SIGNATURE_MISMATCH, type ImportFormat } from "./import-result.ts";
import {
  addCheck,
  checkDates,
  dayOf,
  imageOf,
  isObject,
  issuerIdentityOf,
  readOutsideJson,
  text,
  typeOfAchievement,
  type ImportSession,
  type Verified,
} from "./checks.server.ts";
import { checkRecipient, type EmailIdentity } from "./recipient.server.ts";

/**
 * W3C Verifiable Credentials (Open Badges 3.0 among them): VC 2.0 or 1.1 with one embedded proof
 * (eddsa-rdfc-2022 or Ed25519Signature2020, both checked by data-integrity.server.ts), or a
 * VC-JWT signed with EdDSA, ES256 or RS256 (jws.server.ts). The issuer's key comes from a did:key
 * itself or a did:web document (ours from D1, another host's through fetchOutside). Nothing a
 * credential names is fetched before its signature verified.
 */

export const isW3cCredential = (document: JsonObject) => {
  const contexts = ([] as unknown[]).concat(document["@context"] ?? []);
  return contexts[0] === VC_V1_CONTEXT || contexts[0] === VC_V2_CONTEXT;
};

const issuerIdOf = (document: JsonObject) =>
  typeof document.issuer === "string" ? document.issuer : isObject(document.issuer) ? document.issuer.id : undefined;

/** An embedded proof we check, or why not. */
function supportedProof(document: JsonObject): JsonObject | string {
  const proofs = ([] as unknown[]).concat(document.proof ?? []);
  if (proofs.length === 0) return "It carries no proof: nothing shows who issued it.";
  if (proofs.length > 1 || !isObject(proofs[0])) return "It carries several proofs; only one is checked.";
  const proof = proofs[0];
  const suite =
    proof.type === "Ed25519Signature2020" ||
    (proof.type === "DataIntegrityProof" && proof.cryptosuite === "eddsa-rdfc-2022");
  if (!suite) {
    return `Its proof (${String(proof.cryptosuite ?? proof.type)}) is not one this app checks: eddsa-rdfc-2022 or Ed25519Signature2020.`;
  }
  if (proof.proofPurpose !== "assertionMethod") return "Its proof is not an issuer's assertion.";
  if (typeof proof.proofValue !== "string" || typeof proof.verificationMethod !== "string") {
    return "Its proof is incomplete.";
  }
  return proof;
}

/** The Format check of a JSON-LD credential: what it is, or why it cannot be read. */
function checkFormat(session: ImportSession, document: JsonObject): JsonObject | null {
  const contexts = ([] as unknown[]).concat(document["@context"] ?? []);
  const version = contexts[0] === VC_V2_CONTEXT ? "2.0" : "1.1";
  const refuse = (why: string) => (addCheck(session, "Format", false, why), null);
  if (!([] as unknown[]).concat(document.type ?? []).includes("VerifiableCredential")) {
    return refuse("It is not a Verifiable Credential (its type lacks VerifiableCredential).");
  }
  const unknown = contexts.find((context) => typeof context === "string" && !isKnownContext(context));
  if (unknown) return refuse(`It names a JSON-LD context this app does not read: ${String(unknown)}.`);
  try {
    new URL(String(document.id));
  } catch {
    return refuse("Its id is missing or not a URL, as a credential's must be.");
  }
  const proof = supportedProof(document);
  if (typeof proof === "string") return refuse(proof);
  if (proof.type === "Ed25519Signature2020" && !contexts.includes(ED25519_2020_CONTEXT)) {
    return refuse("Its Ed25519Signature2020 proof lacks that suite's context.");
  }
  const suite = proof.type === "Ed25519Signature2020" ? "Ed25519Signature2020" : "eddsa-rdfc-2022";
  addCheck(session, "Format", true, `A Verifiable Credential ${version} signed with ${suite}.`);
  return proof;
}

/** The issuer's key for `verificationMethod`: the did:key's own, or one its did:web document lists. */
async function issuerKey(
  session: ImportSession,
  issuerId: string,
  verificationMethod: string,
): Promise<JwsKey | string> {
  if (issuerId.startsWith("did:key:")) {
    const key = verificationMethod === `${issuerId}#${issuerId.slice(8)}` ? keyOfDidKey(issuerId) : null;
    return key ?? "The signing key is not the issuer's did:key.";
  }
  if (!issuerId.startsWith("did:web:")) return "Only did:key and did:web issuers can be checked.";
  if (!verificationMethod.startsWith(`${issuerId}#`)) return "The signing key is not one of the issuer's.";
  const didDocument = await resolveDid(session.lookup, issuerId);
  if (typeof didDocument === "string") return didDocument;
  return (
    listedJwsKey(didDocument, verificationMethod, "assertionMethod") ??
    "The issuer's DID document does not list the signing key."
  );
}

/** The issuer's key for an embedded proof, which only Ed25519 signs here. */
async function ed25519IssuerKey(session: ImportSession, issuerId: string, verificationMethod: string) {
  const key = await issuerKey(session, issuerId, verificationMethod);
  if (typeof key === "string") return key;
  return key.kind === "Ed25519" ? key.raw : "The signing key is not an Ed25519 key, as its proof's suite needs.";
}

function keyDetail(issuerId: string) {
  return issuerId.startsWith("did:key:")
    ? "Read from the issuer's did:key itself."
    : `Listed in the DID document of ${issuerId}.`;
}

export async function verifyLinkedData(session: ImportSession, document: JsonObject): Promise<Verified> {
  const version = ([] as unknown[]).concat(document["@context"] ?? [])[0] === VC_V2_CONTEXT;
  const format: ImportFormat = version ? "Open Badges 3.0 / VC 2.0" : "Verifiable Credential 1.1";
  const proof = checkFormat(session, document);
  if (!proof) return { format };
  const issuerId = issuerIdOf(document);
  if (typeof issuerId !== "string") {
    addCheck(session, "Issuer key", false, "It names no issuer.");
    return { format };
  }
  const key = await ed25519IssuerKey(session, issuerId, String(proof.verificationMethod));
  if (!addCheck(session, "Issuer key", typeof key !== "string", typeof key === "string" ? key : keyDetail(issuerId))) {
    return { format };
  }
  const signed = await verifySignature(document, proof as JsonObject & { proofValue: string }, key as Uint8Array);
  if (!addCheck(session, "Signature", signed, signed ? "The signature is valid." : SIGNATURE_MISMATCH)) {
    return { format };
  }
  return finish(session, format, document, issuerId, {
    from: version ? document.validFrom : document.issuanceDate,
    until: version ? document.validUntil : document.expirationDate,
  });
}

/** After the signature: revocation, dates, recipient, and the badge as the passport shows it. */
async function finish(
  session: ImportSession,
  format: ImportFormat,
  credential: JsonObject,
  issuerId: string,
  dates: { from: unknown; until: unknown; subject?: unknown },
): Promise<Verified> {
  if (!(await checkStatus(session, credential, issuerId))) return { format };
  checkDates(session, dates.from, dates.until);
  const subject = ([] as unknown[]).concat(credential.credentialSubject ?? [])[0];
  const subjectObject = isObject(subject) ? subject : {};
  const emails: EmailIdentity[] = ([] as unknown[])
    .concat(subjectObject.identifier ?? [])
    .filter(isObject)
    .filter((identifier) => identifier.identityType === "emailAddress" && typeof identifier.identityHash === "string")
    .map((identifier) => ({
      hashed: identifier.hashed === true,
      identity: String(identifier.identityHash),
      salt: typeof identifier.salt === "string" ? identifier.salt : undefined,
    }));
  const subjectId = typeof subjectObject.id === "string" ? subjectObject.id : (dates.subject as string | undefined);
  const recipient = await checkRecipient({ emails, subjectId }, session.recipient);
  addCheck(session, "Recipient", recipient.passed, recipient.detail);
  session.walletDid = recipient.walletDid;

  const achievement = isObject(subjectObject.achievement) ? subjectObject.achievement : {};
  const issuer = isObject(credential.issuer) ? credential.issuer : {};
  const date = dayOf(credential.awardedDate) ?? dayOf(dates.from) ?? dayOf(session.now)!;
  return {
    format,
    issuerId,
    key: `${issuerId} ${String(credential.id ?? "")}`,
    badge: {
      name: text(achievement.name, 200) ?? text(credential.name, 200) ?? "Credential",
      description: text(achievement.description, 1000) ?? text(credential.description, 1000),
      image: imageOf(achievement.image) ?? imageOf(credential.image),
      issuerName: text(issuer.name, 200) ?? issuerId.slice(0, 200),
      issuerIdentity: issuerIdentityOf(issuerId),
      date,
      expires: dayOf(dates.until),
      type: typeOfAchievement(achievement.achievementType),
    },
  };
}

/**
 * The Revocation check: the credential's Bitstring (or 2021) status list, read from our D1 when it
 * is ours, else from its address within the budget, and trusted only when the issuer signed it.
 * Returns false when the check failed.
 */
async function checkStatus(session: ImportSession, credential: JsonObject, issuerId: string) {
  const entry = ([] as unknown[]).concat(credential.credentialStatus ?? [])[0];
  if (entry === undefined) {
    return addCheck(session, "Revocation", true, "It has no status list: its issuer cannot revoke it.");
  }
  const fail = (detail: string) => addCheck(session, "Revocation", false, detail);
  const index = Number(isObject(entry) ? entry.statusListIndex : NaN);
  if (
    !isObject(entry) ||
    (entry.type !== "BitstringStatusListEntry" && entry.type !== "StatusList2021Entry") ||
    typeof entry.statusListCredential !== "string" ||
    !Number.isInteger(index) ||
    index < 0
  ) {
    return fail("Its status entry is not a status list entry this app reads (Bitstring Status List).");
  }
  const url = entry.statusListCredential;
  const { issuing } = session.resolver;
  const own = statusListUrl(issuing.origin, "");
  // A did:web issuer's list is on its own host, as for our verifier (issue 43).
  const elsewhere = url.startsWith(own) || !issuerId.startsWith("did:web:") ? null : statusListElsewhere(url, issuerId);
  if (elsewhere) return fail(elsewhere);
  const list = url.startsWith(own)
    ? ((await statusListCredential(issuing, url.slice(own.length))) ?? "Its status list was not found.")
    : await readOutsideJson(session, url, "Its status list");
  if (typeof list === "string") return fail(list);
  const listProof = supportedProof(list);
  const key =
    issuerIdOf(list) === issuerId && typeof listProof !== "string"
      ? await ed25519IssuerKey(session, issuerId, String(listProof.verificationMethod))
      : null;
  const signed =
    key instanceof Uint8Array && typeof listProof !== "string"
      ? await verifySignature(list, listProof as JsonObject & { proofValue: string }, key)
      : false;
  if (!signed) return fail("Its status list is not signed by its issuer.");
  const subject = isObject(list.credentialSubject) ? list.credentialSubject : {};
  const encoded = String(subject.encodedList ?? "");
  // A 2021 list has no multibase prefix: its gzip begins "H4sI" in base64url.
  // Read up to the size the list declares, at most 2 MB (decodeList): another issuer's may be larger than ours.
  const bits = await decodeList(encoded.startsWith("H4sI") ? `u${encoded}` : encoded);
  if (!bits || index >= bits.length * 8) return fail("Its status list cannot be read.");
  if (isSet(bits, index)) {
    const purpose = entry.statusPurpose === "suspension" ? "Suspended" : "Revoked";
    return fail(`${purpose} by the issuer.`);
  }
  return addCheck(session, "Revocation", true, "Not revoked: checked against the issuer's status list.");
}

/** Whether a JWT's payload is a Verifiable Credential: VC-JWT 1.1's `vc` claim, or VC-JOSE 2.0's whole payload. */
export function credentialOfJwt(payload: JsonObject): JsonObject | null {
  if (isObject(payload.vc) && isW3cCredential({ "@context": payload.vc["@context"] })) return payload.vc;
  return isW3cCredential(payload) ? payload : null;
}

/** The JWS algorithms of an imported VC-JWT (verifyJws checks each against its key's kind). */
const JWT_ALGORITHMS = ["EdDSA", "Ed25519", "ES256", "RS256"];

export async function verifyJwt(session: ImportSession, token: string): Promise<Verified> {
  const format: ImportFormat = "VC-JWT";
  const { header, payload, signingInput, signature } = decodeJwt(token)!;
  const credential = credentialOfJwt(payload)!;
  if (!JWT_ALGORITHMS.includes(String(header.alg))) {
    addCheck(
      session,
      "Format",
      false,
      `It is signed with ${String(header.alg)}; this app checks EdDSA (Ed25519), ES256 (P-256) and RS256.`,
    );
    return { format };
  }
  if (!([] as unknown[]).concat(credential.type ?? []).includes("VerifiableCredential")) {
    addCheck(session, "Format", false, "It is not a Verifiable Credential (its type lacks VerifiableCredential).");
    return { format };
  }
  addCheck(session, "Format", true, `A Verifiable Credential as a JWT, signed with ${String(header.alg)}.`);
  const issuerId = typeof payload.iss === "string" ? payload.iss : issuerIdOf(credential);
  // The signer (iss) must be the issuer the credential names, whose name is shown (issue 43).
  const mismatch = credential.issuer !== undefined && issuerIdOf(credential) !== issuerId;
  if (typeof issuerId !== "string" || mismatch) {
    const why = mismatch ? `The token's signer (iss) ${issuerId} is not the issuer the credential names.` : null;
    addCheck(session, "Issuer key", false, why ?? "It names no issuer.");
    return { format };
  }
  const kid = typeof header.kid === "string" ? header.kid : "";
  const method = kid.startsWith("#")
    ? `${issuerId}${kid}`
    : kid || (issuerId.startsWith("did:key:") ? `${issuerId}#${issuerId.slice(8)}` : "");
  const key = await issuerKey(session, issuerId, method);
  if (!addCheck(session, "Issuer key", typeof key !== "string", typeof key === "string" ? key : keyDetail(issuerId))) {
    return { format };
  }
  const signed = await verifyJws(key as JwsKey, header.alg, signature, new TextEncoder().encode(signingInput));
  if (!addCheck(session, "Signature", signed, signed ? "The signature is valid." : SIGNATURE_MISMATCH)) {
    return { format };
  }
  const seconds = (value: unknown) => (typeof value === "number" ? new Date(value * 1000).toISOString() : undefined);
  return finish(session, format, { id: payload.jti, ...credential }, issuerId, {
    from: credential.validFrom ?? credential.issuanceDate ?? seconds(payload.nbf) ?? seconds(payload.iat),
    until: credential.validUntil ?? credential.expirationDate ?? seconds(payload.exp),
    subject: payload.sub,
  });
}
