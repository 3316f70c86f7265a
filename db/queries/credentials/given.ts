import { and, count, eq, gt, isNotNull, isNull, lte, sql } from "drizzle-orm";
import type { Db } from "../../client.ts";
import { achievements, credentials, organizations, profiles } from "../../schema.ts";
import { keyset, toPage, type PageRequest } from "../paging.ts";

// What an organisation gave, as its dashboard lists it: every achievement, or those expiring and
// expired (decision 071), each with its credential when one was issued.

/**
 * One page of the achievements an organisation gave (keyset, newest first by creation, the id
 * breaking ties), with their credential when one was issued, and how many it gave in all (the
 * organisation's own count, kept by triggers: decision 037): one round trip.
 */
export async function listGivenAchievements(db: Db, organizationId: string, page: PageRequest) {
  const given = eq(achievements.organizationId, organizationId);
  const { where, orderBy, limit } = keyset(achievements.createdAt, achievements.id, "desc", page);
  const [rows, [total]] = await db.batch([
    db
      .select(givenColumns)
      .from(achievements)
      .innerJoin(profiles, eq(profiles.id, achievements.userId))
      .leftJoin(credentials, eq(credentials.achievementId, achievements.id))
      .where(and(given, where))
      .orderBy(...orderBy)
      .limit(limit),
    db
      .select({ value: organizations.achievementsGiven })
      .from(organizations)
      .where(eq(organizations.id, organizationId)),
  ]);
  const cursorOf = (row: { createdAt: Date; id: string }) => ({ key: row.createdAt.getTime(), id: row.id });
  return { ...toPage(rows, page, cursorOf), total: total?.value ?? 0 };
}

const givenColumns = {
  id: achievements.id,
  title: achievements.title,
  date: achievements.date,
  status: achievements.status,
  recipientName: profiles.fullName,
  // Aliased: a batch reads rows as objects, where a second "id" would overwrite the first.
  credentialId: sql<string | null>`${credentials.id}`.as("credential_id"),
  revokedAt: credentials.revokedAt,
  // Expiry and renewal (decision 071).
  validUntil: achievements.validUntil,
  renewalCount: achievements.renewalCount,
  firstGivenOn: achievements.firstGivenOn,
  renewedBy: achievements.renewedBy,
  createdAt: achievements.createdAt,
};

/** The given-achievements list's expiry filters (decision 071). */
export const EXPIRY_FILTERS = ["expiring", "expired"] as const;
export type ExpiryFilter = (typeof EXPIRY_FILTERS)[number];
/** 'Expiring in 30 days': how far ahead it looks. */
export const EXPIRING_WITHIN_DAYS = 30;

/** `days` after the day `today` (YYYY-MM-DD). */
export const addDays = (today: string, days: number) =>
  new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * One page of an organisation's live accepted entries that expire within 30 days (soonest
 * first) or have expired (latest first), and how many there are: read through the partial
 * index `achievements_org_valid_until_idx` (decision 071). Entries folded by an accepted renewal
 * are not listed: their renewal is.
 */
export async function listGivenByExpiry(
  db: Db,
  organizationId: string,
  filter: ExpiryFilter,
  today: string,
  page: PageRequest,
) {
  const range =
    filter === "expiring"
      ? and(gt(achievements.validUntil, today), lte(achievements.validUntil, addDays(today, EXPIRING_WITHIN_DAYS)))
      : lte(achievements.validUntil, today);
  const matching = and(
    eq(achievements.organizationId, organizationId),
    isNotNull(achievements.validUntil),
    eq(achievements.status, "accepted"),
    isNull(achievements.renewedBy),
    range,
  );
  const order = filter === "expiring" ? "asc" : "desc";
  const { where, orderBy, limit } = keyset(achievements.validUntil, achievements.id, order, page);
  const [rows, [total]] = await db.batch([
    db
      .select(givenColumns)
      .from(achievements)
      .innerJoin(profiles, eq(profiles.id, achievements.userId))
      .leftJoin(credentials, eq(credentials.achievementId, achievements.id))
      .where(and(matching, where))
      .orderBy(...orderBy)
      .limit(limit),
    db.select({ value: count() }).from(achievements).where(matching),
  ]);
  const cursorOf = (row: { validUntil: string | null; id: string }) => ({ key: row.validUntil ?? "", id: row.id });
  return { ...toPage(rows, page, cursorOf), total: total?.value ?? 0 };
}
