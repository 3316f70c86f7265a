import type { Resolver } from "#app/services/credentials/did-web.server.ts";
import type { ImportContainer, ImportOutcome } from "./import-result.ts";
import { addCheck, importSession, readOutsideJson, type ImportSession, type Verified } from "./checks.server.ts";
import { isOpenBadge2, verifyHosted, verifySigned } from "./open-badges-2.server.ts";
import { importIssuerOf } from "./issuer-standing.server.ts";
import { readImport, type Carried, type ImportSource } from "./read-input.server.ts";
import type { Recipient } from "./recipient.server.ts";
import { decodeJwt } from "#app/services/credentials/jws.server.ts";
import { forbiddenCharacterMessage } from "#app/utils/validation.ts";
import { credentialOfJwt, isW3cCredential, verifyJwt, verifyLinkedData } from "./w3c.server.ts";

/**
 * Verifies a badge or credential someone imports (issue 32, decision 069), before anything is
 * kept: it is read from the file or text (read-input.server.ts), recognised, and checked by its
 * format's rules, each check in plain words. A failure of any check but expiry refuses it with
 * that check's words; an expired one may be kept. `recipient` holds the person's addresses and
 * wallet DIDs: the badge must name one of them.
 */
export async function verifyImport(
  source: ImportSource,
  context: { resolver: Resolver; recipient: Recipient; now?: Date },
): Promise<ImportOutcome> {
  const read = await readImport(source);
  if ("refused" in read) {
    return {
      status: "refused",
      reason: read.refused,
      format: null,
      container: null,
      checks: [{ name: "Format", passed: false, detail: read.refused }],
    };
  }
  const session = importSession(context.resolver, context.recipient, context.now ?? new Date());
  const verified = await verifyCarried(session, read.carried);
  return outcomeOf(session, verified, read.container);
}

async function verifyCarried(session: ImportSession, carried: Carried): Promise<Verified> {
  let fetchedFrom: string | null = null;
  let document: Record<string, unknown>;
  if (carried.kind === "url") {
    const read = await readOutsideJson(session, carried.url, "The credential");
    if (typeof read === "string") {
      addCheck(session, "Format", false, read);
      return { format: null };
    }
    document = read;
    fetchedFrom = carried.url;
  } else if (carried.kind === "compact") {
    const decoded = decodeJwt(carried.token);
    if (decoded && credentialOfJwt(decoded.payload)) return verifyJwt(session, carried.token);
    if (decoded && isOpenBadge2(decoded.payload)) return verifySigned(session, carried.token);
    addCheck(session, "Format", false, "This token is neither a VC-JWT nor a signed Open Badges 2.0 assertion.");
    return { format: null };
  } else document = carried.value;

  if (isW3cCredential(document)) return verifyLinkedData(session, document);
  if (isOpenBadge2(document)) return verifyHosted(session, document, fetchedFrom);
  addCheck(
    session,
    "Format",
    false,
    "This is neither an Open Badges assertion (2.0) nor a W3C Verifiable Credential (Open Badges 3.0).",
  );
  return { format: null };
}

/** What an entry's title holds: "name - issuer", as a typed title at most 200 characters. */
const TITLE_MAX = 200;

/**
 * Why the badge's name or its issuer's cannot be shown, or null: they pass the rules of a typed
 * title (decision 011: no control or text-direction override characters; at most 200 characters
 * together, as the entry's title) and hold no zero-width character (issue 43). Refused, as a typed
 * title would be, not silently changed: the entry says what the issuer signed or nothing.
 */
function namesProblem({ name, issuerName }: { name: string; issuerName: string }) {
  const problem =
    forbiddenCharacterMessage(name, "The badge's name", { zeroWidth: true }) ??
    forbiddenCharacterMessage(issuerName, "The issuer's name", { zeroWidth: true });
  if (problem) return `${problem}, so it cannot be shown on a passport.`;
  if (`${name} - ${issuerName}`.length > TITLE_MAX) {
    return `The badge's name and its issuer's are longer than ${TITLE_MAX} characters together, more than a passport entry's title holds.`;
  }
  return null;
}

async function outcomeOf(
  session: ImportSession,
  verified: Verified,
  container: ImportContainer,
): Promise<ImportOutcome> {
  const { checks } = session;
  const failed = checks.filter((check) => !check.passed);
  const onlyExpired = failed.length === 1 && failed[0]!.name === "Dates" && failed[0]!.detail.startsWith("Expired");
  if ("badge" in verified && (failed.length === 0 || onlyExpired)) {
    const problem = namesProblem(verified.badge);
    if (problem) {
      addCheck(session, "Format", false, problem);
      return { status: "refused", reason: problem, format: verified.format, container, checks };
    }
    return {
      status: failed.length === 0 ? "verified" : "expired",
      format: verified.format,
      container,
      checks,
      badge: verified.badge,
      key: verified.key,
      // Who stands behind the issuer's name, asked only of what may be kept (issue 43).
      issuer: await importIssuerOf(session, verified.issuerId, verified.badge.issuerName),
      ...(session.walletDid ? { walletDid: session.walletDid } : {}),
    };
  }
  const refusing = failed.filter((check) => !(check.name === "Dates" && check.detail.startsWith("Expired")));
  // Refused only because its wallet DID is not proved for this import: a DIDAuth may prove it.
  const walletDid = refusing.length === 1 && refusing[0]!.name === "Recipient" ? session.walletDid : undefined;
  return {
    status: "refused",
    reason: refusing[0]?.detail ?? "It could not be verified.",
    format: verified.format,
    container,
    checks,
    ...(walletDid ? { walletDid } : {}),
  };
}
