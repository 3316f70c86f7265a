import { fetchOutside, outsideBudget, type OutsideBudget } from "#app/services/outside-web.server.ts";
import { parseDidWeb, type Lookup, type Resolver } from "#app/services/credentials/did-web.server.ts";
import type { JsonObject } from "#app/services/credentials/data-integrity.server.ts";
import {
  ISSUER_NOT_IDENTIFIED,
  type ImportCheck,
  type ImportCheckName,
  type ImportedBadge,
  type ImportFormat,
} from "./import-result.ts";
import type { Recipient } from "./recipient.server.ts";
import type { AchievementType } from "#db/enums.ts";

/**
 * One import's verification: its checks as they are made, its budget of outside reads (an OB 2.0
 * signed assertion needs four: BadgeClass, issuer, key, revocation list), and what it knows of
 * the person it is for.
 */

/** Outside reads one import may make: a pasted address, then at most four documents it names. */
export const IMPORT_OUTSIDE_FETCHES = 6;

export type ImportSession = {
  resolver: Resolver;
  recipient: Recipient;
  now: Date;
  budget: OutsideBudget;
  /** The budget and the DID documents read so far: an issuer's is read once per import. */
  lookup: Lookup;
  checks: ImportCheck[];
  /** The wallet DID the credential was issued to (its Recipient check says whether it was proved). */
  walletDid?: string;
};

export function importSession(resolver: Resolver, recipient: Recipient, now: Date): ImportSession {
  const budget = outsideBudget(IMPORT_OUTSIDE_FETCHES);
  return { resolver, recipient, now, budget, lookup: { resolver, budget, didDocuments: new Map() }, checks: [] };
}

export function addCheck(session: ImportSession, name: ImportCheckName, passed: boolean, detail: string) {
  session.checks.push({ name, passed, detail });
  return passed;
}

/** What a format's verifier found: the badge, its identity and its issuer's id. */
export type Verified =
  { format: ImportFormat; badge: ImportedBadge; key: string; issuerId: string } | { format: ImportFormat | null };

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const JSON_TYPES = "application/ld+json, application/json";

/** A JSON object read from another host within the import's budget, or why it could not be. */
export async function readOutsideJson(session: ImportSession, url: string, what: string): Promise<JsonObject | string> {
  const answer = await fetchOutside(session.resolver.outside, url, { accept: JSON_TYPES, budget: session.budget });
  const host = hostOfUrl(url) ?? url;
  if (!answer.ok) return `${what} could not be read from ${host}: ${answer.reason}.`;
  try {
    const json = JSON.parse(answer.body) as unknown;
    return isObject(json) ? json : `${what} at ${host} is not a JSON object.`;
  } catch {
    return `${what} at ${host} is not JSON.`;
  }
}

export function hostOfUrl(url: unknown) {
  if (typeof url !== "string") return null;
  try {
    return new URL(url).host || null;
  } catch {
    return null;
  }
}

/** The issuer in words: a did:web's host, an https issuer's host, else 'Issuer not identified'. */
export function issuerIdentityOf(issuerId: string) {
  if (issuerId.startsWith("did:web:")) {
    const parsed = parseDidWeb(issuerId);
    return typeof parsed === "string" ? ISSUER_NOT_IDENTIFIED : parsed.host;
  }
  return issuerId.startsWith("https://") ? (hostOfUrl(issuerId) ?? ISSUER_NOT_IDENTIFIED) : ISSUER_NOT_IDENTIFIED;
}

/** Dates: in force now, not yet, or expired (which alone still lets the badge be kept). */
export function checkDates(session: ImportSession, from: unknown, until: unknown) {
  const start = Date.parse(String(from));
  const end = until === undefined || until === null ? Infinity : Date.parse(String(until));
  const now = session.now.getTime();
  if (Number.isNaN(start) || Number.isNaN(end)) {
    return addCheck(session, "Dates", false, "Its dates are not valid dates.");
  }
  if (start > now) return addCheck(session, "Dates", false, `Not valid until ${day(new Date(start))}.`);
  if (end <= now) return addCheck(session, "Dates", false, `Expired on ${day(new Date(end))}.`);
  return addCheck(
    session,
    "Dates",
    true,
    end === Infinity ? `Issued on ${day(new Date(start))}; it does not expire.` : `Valid until ${day(new Date(end))}.`,
  );
}

export const day = (date: Date) => date.toISOString().slice(0, 10);
export const dayOf = (value: unknown) => {
  const time = Date.parse(String(value));
  return Number.isNaN(time) ? null : day(new Date(time));
};

/** A text value of a credential, trimmed and capped, or null. */
export function text(value: unknown, max: number) {
  if (typeof value !== "string") return null;
  const trimmed = value.trim();
  return trimmed ? trimmed.slice(0, max) : null;
}

/** The longest image address kept: a data: image past it is left out rather than stored in every page. */
const IMAGE_URL_MAX = 200 * 1024;

/** An image as a credential gives it (a URL or an Image object): https or data: only, never fetched here. */
export function imageOf(value: unknown) {
  const url = isObject(value) ? value.id : value;
  return typeof url === "string" && url.length <= IMAGE_URL_MAX && /^(https:\/\/|data:image\/)/i.test(url) ? url : null;
}

const MILESTONES = /degree|diploma|doctora|membership|apprentice|journeyman|mastercertificate|milestone/i;
const TRAINING =
  /course|certific|licen|learningprogram|assessment|assignment|microcredential|fieldwork|generaleducation|qualityassurance/i;

/** The timeline type of an OB 3.0 achievementType: degrees and memberships as milestones, courses as training. */
export function typeOfAchievement(achievementType: unknown): AchievementType {
  if (typeof achievementType !== "string") return "award";
  if (MILESTONES.test(achievementType)) return "milestone";
  return TRAINING.test(achievementType) ? "training" : "award";
}
