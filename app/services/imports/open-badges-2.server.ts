import type { JsonObject } from "#app/services/credentials/data-integrity.server.ts";
import { SIGNATURE_MISMATCH, type ImportFormat } from "./import-result.ts";
import {
  addCheck,
  checkDates,
  dayOf,
  hostOfUrl,
  imageOf,
  isObject,
  issuerIdentityOf,
  readOutsideJson,
  text,
  type ImportSession,
  type Verified,
} from "./checks.server.ts";
import { checkRecipient } from "./recipient.server.ts";
import { decodeJwt } from "#app/services/credentials/jws.server.ts";

/**
 * Open Badges 2.0 assertions, verified as the 1EdTech specification describes: a hosted one is
 * read again from its `id` (the issuer's copy is the truth; it must be on the issuer's host), with
 * its BadgeClass and issuer Profile read from theirs; a signed one is a JWS (RS256) whose key is
 * the issuer Profile's `publicKey`, a CryptographicKey document owned by that Profile, and whose
 * revocation is the Profile's `revocationList`. Every document read within the import's budget.
 */

export const OB2_CONTEXT = "https://w3id.org/openbadges/v2";

export function isOpenBadge2(document: JsonObject) {
  const contexts = ([] as unknown[]).concat(document["@context"] ?? []);
  return contexts.includes(OB2_CONTEXT) || (document.recipient !== undefined && document.badge !== undefined);
}

const idOf = (value: unknown) => (typeof value === "string" ? value : isObject(value) ? value.id : undefined);
const verificationType = (assertion: JsonObject) =>
  String((isObject(assertion.verification) ? assertion.verification.type : undefined) ?? "hosted").toLowerCase();

/** A document by its https id: read from there (an embedded copy is never trusted for a hosted badge). */
async function readLinked(session: ImportSession, value: unknown, what: string): Promise<JsonObject | string> {
  const id = idOf(value);
  if (typeof id !== "string" || !id.startsWith("https://")) return `${what} has no https address to read it from.`;
  return readOutsideJson(session, id, what);
}

export async function verifyHosted(
  session: ImportSession,
  given: JsonObject,
  fetchedFrom: string | null,
): Promise<Verified> {
  const format: ImportFormat = "Open Badges 2.0, hosted";
  if (["signed", "signedbadge"].includes(verificationType(given))) {
    addCheck(
      session,
      "Format",
      false,
      "A signed Open Badges 2.0 assertion is checked by its signature: import the baked image or the JWS itself.",
    );
    return { format };
  }
  const id = typeof given.id === "string" ? given.id : null;
  if (!id?.startsWith("https://")) {
    addCheck(session, "Format", false, "A hosted Open Badges 2.0 assertion needs the https address it is hosted at.");
    return { format };
  }
  addCheck(session, "Format", true, "An Open Badges 2.0 assertion, hosted by its issuer.");
  const hosted = fetchedFrom === id ? given : await readOutsideJson(session, id, "The hosted assertion");
  if (typeof hosted === "string") {
    addCheck(session, "Hosted copy", false, hosted);
    return { format };
  }
  const same =
    hosted.id === id &&
    (hosted.revoked === true ||
      (idOf(hosted.badge) === idOf(given.badge) &&
        JSON.stringify(hosted.recipient) === JSON.stringify(given.recipient) &&
        hosted.issuedOn === given.issuedOn));
  if (
    !addCheck(
      session,
      "Hosted copy",
      same,
      same ? `Matches the copy its issuer hosts at ${hostOfUrl(id)}.` : "It does not match the copy its issuer hosts.",
    )
  ) {
    return { format };
  }
  if (hosted.revoked === true) {
    const reason = text(hosted.revocationReason, 300);
    addCheck(session, "Revocation", false, `Revoked by the issuer${reason ? `: ${reason}` : "."}`);
    return { format };
  }
  const badge = await readLinked(session, hosted.badge, "Its BadgeClass");
  const issuer = typeof badge === "string" ? badge : await readLinked(session, badge.issuer, "Its issuer's profile");
  if (typeof badge === "string" || typeof issuer === "string") {
    addCheck(session, "Issuer", false, typeof badge === "string" ? badge : (issuer as string));
    return { format };
  }
  const issuerId = String(issuer.id ?? "");
  const allowed = ([] as unknown[])
    .concat(isObject(issuer.verification) ? (issuer.verification.allowedOrigins ?? []) : [])
    .filter((origin): origin is string => typeof origin === "string");
  const onIssuerHost = hostOfUrl(id) === hostOfUrl(issuerId) || allowed.includes(hostOfUrl(id) ?? "");
  const profileMatches = issuerId === idOf(badge.issuer) && badge.id === idOf(hosted.badge);
  const issuerPassed = onIssuerHost && profileMatches;
  addCheck(
    session,
    "Issuer",
    issuerPassed,
    !profileMatches
      ? "Its BadgeClass or issuer profile does not answer at its own address."
      : onIssuerHost
        ? `The issuer's profile and the assertion are both on ${hostOfUrl(id)}.`
        : `The assertion is on ${hostOfUrl(id)}, not on the issuer's host ${hostOfUrl(issuerId)}.`,
  );
  if (!issuerPassed) return { format };
  addCheck(session, "Revocation", true, "Not revoked: its issuer still hosts it.");
  return finish(session, format, hosted, badge, issuer);
}

function pemToSpki(pem: string) {
  const body = /-----BEGIN PUBLIC KEY-----([\s\S]+?)-----END PUBLIC KEY-----/.exec(pem)?.[1];
  if (!body) return null;
  try {
    return Uint8Array.from(atob(body.replace(/\s+/g, "")), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

export async function verifySigned(session: ImportSession, token: string): Promise<Verified> {
  const format: ImportFormat = "Open Badges 2.0, signed";
  const { header, payload: assertion, signingInput, signature } = decodeJwt(token)!;
  if (header.alg !== "RS256") {
    addCheck(session, "Format", false, `It is signed with ${String(header.alg)}; Open Badges 2.0 signs with RS256.`);
    return { format };
  }
  const verification = isObject(assertion.verification) ? assertion.verification : {};
  addCheck(session, "Format", true, "An Open Badges 2.0 assertion, signed by its issuer (JWS).");

  // An embedded BadgeClass stands as issued; the issuer's keys only from its hosted profile.
  const badge = isObject(assertion.badge)
    ? assertion.badge
    : await readLinked(session, assertion.badge, "Its BadgeClass");
  const issuer = typeof badge === "string" ? badge : await readLinked(session, badge.issuer, "Its issuer's profile");
  if (typeof badge === "string" || typeof issuer === "string") {
    addCheck(session, "Issuer key", false, typeof badge === "string" ? badge : (issuer as string));
    return { format };
  }
  const issuerId = String(issuer.id ?? "");
  const listed = ([] as unknown[]).concat(issuer.publicKey ?? []).map(idOf);
  const creator = typeof verification.creator === "string" ? verification.creator : listed[0];
  if (issuerId !== idOf(badge.issuer) || typeof creator !== "string" || !listed.includes(creator)) {
    addCheck(session, "Issuer key", false, "The signing key is not one its issuer's profile lists.");
    return { format };
  }
  const embedded = ([] as unknown[]).concat(issuer.publicKey ?? []).find((key) => isObject(key) && key.id === creator);
  const keyDocument = isObject(embedded) ? embedded : await readOutsideJson(session, creator, "The issuer's key");
  if (
    typeof keyDocument === "string" ||
    keyDocument.owner !== issuerId ||
    typeof keyDocument.publicKeyPem !== "string"
  ) {
    addCheck(
      session,
      "Issuer key",
      false,
      typeof keyDocument === "string" ? keyDocument : "The key document does not name the issuer as its owner.",
    );
    return { format };
  }
  const spki = pemToSpki(keyDocument.publicKeyPem);
  let signed = false;
  try {
    const key = await crypto.subtle.importKey("spki", spki!, { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, false, [
      "verify",
    ]);
    signed = await crypto.subtle.verify("RSASSA-PKCS1-v1_5", key, signature, new TextEncoder().encode(signingInput));
  } catch {
    signed = false;
  }
  addCheck(
    session,
    "Issuer key",
    Boolean(spki),
    spki ? `Listed in the issuer's profile at ${hostOfUrl(issuerId)}.` : "The issuer's key is not a public key in PEM.",
  );
  if (!spki) return { format };
  if (!addCheck(session, "Signature", signed, signed ? "The signature is valid." : SIGNATURE_MISMATCH)) {
    return { format };
  }
  if (!(await checkRevocationList(session, assertion, issuer))) return { format };
  return finish(session, format, assertion, badge, issuer);
}

/** The issuer's RevocationList, when its profile names one: the assertion must not be on it. */
async function checkRevocationList(session: ImportSession, assertion: JsonObject, issuer: JsonObject) {
  if (issuer.revocationList === undefined) {
    return addCheck(session, "Revocation", true, "Its issuer publishes no revocation list.");
  }
  const list = await readLinked(session, issuer.revocationList, "The issuer's revocation list");
  if (typeof list === "string") return addCheck(session, "Revocation", false, list);
  const revoked = ([] as unknown[]).concat(list.revokedAssertions ?? []).find((entry) => {
    const entryId = idOf(entry);
    const uid = isObject(entry) ? entry.uid : undefined;
    return (entryId !== undefined && entryId === assertion.id) || (uid !== undefined && uid === assertion.uid);
  });
  if (revoked !== undefined) {
    const reason = isObject(revoked) ? text(revoked.revocationReason, 300) : null;
    return addCheck(session, "Revocation", false, `Revoked by the issuer${reason ? `: ${reason}` : "."}`);
  }
  return addCheck(session, "Revocation", true, "Not on its issuer's revocation list.");
}

async function finish(
  session: ImportSession,
  format: ImportFormat,
  assertion: JsonObject,
  badge: JsonObject,
  issuer: JsonObject,
): Promise<Verified> {
  checkDates(session, assertion.issuedOn, assertion.expires);
  const recipient = isObject(assertion.recipient) ? assertion.recipient : {};
  const kind = String(recipient.type ?? "email");
  const recipientCheck = await checkRecipient(
    {
      emails:
        kind === "email" && typeof recipient.identity === "string"
          ? [
              {
                hashed: recipient.hashed === true,
                identity: recipient.identity,
                salt: typeof recipient.salt === "string" ? recipient.salt : undefined,
              },
            ]
          : [],
      otherKind: kind === "email" ? null : kind,
    },
    session.recipient,
  );
  addCheck(session, "Recipient", recipientCheck.passed, recipientCheck.detail);
  const issuerId = String(issuer.id ?? "");
  return {
    format,
    issuerId,
    key: `${issuerId} ${String(assertion.id ?? assertion.uid ?? "")}`,
    badge: {
      name: text(badge.name, 200) ?? "Badge",
      description: text(badge.description, 1000),
      image: imageOf(badge.image) ?? imageOf(assertion.image),
      issuerName: text(issuer.name, 200) ?? issuerIdentityOf(issuerId),
      issuerIdentity: issuerIdentityOf(issuerId),
      date: dayOf(assertion.issuedOn) ?? dayOf(session.now)!,
      expires: dayOf(assertion.expires),
      type: "award",
    },
  };
}
