import { and, count, desc, eq, gt, isNotNull, isNull, lt, lte, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { batchSql, insertWhen, type Db } from "../client.ts";
import {
  achievements,
  credentials,
  credentialStatusLists,
  organizationKeys,
  organizations,
  profiles,
  users,
} from "../schema.ts";
import { keyset, toPage, type PageRequest } from "./paging.ts";
import { issuerIdentityColumns } from "./organization-domains.ts";

/**
 * The retired key versions of the organisation in `organizationId` (a column of the outer row),
 * read with that row rather than after it: what a stored proof's key must be checked against
 * before the proof is served (decision 054).
 */
export const retiredKeyVersionsOf = (organizationId: SQLiteColumn) =>
  sql`coalesce((select group_concat(${organizationKeys.version}) from ${organizationKeys}
      where ${organizationKeys.organizationId} = ${organizationId} and ${organizationKeys.retiredAt} is not null), '')`.mapWith(
    (versions: string) => (versions ? String(versions).split(",").map(Number) : []),
  );

/**
 * An achievement's id, or SQL that selects it: a wallet's acceptance reads the achievement its
 * exchange names in the batch that reads the exchange (decision 066).
 */
export type AchievementKey = string | SQL;

/** The organisation of an achievement, as SQL: reads keyed on it join the achievement's read. */
const organizationOfAchievement = (achievementId: AchievementKey) =>
  sql`(select ${achievements.organizationId} from ${achievements} where ${achievements.id} = ${achievementId})`;

/**
 * An achievement as its recipient's answer needs it: who may answer, who gave it (to be told),
 * and what its credential says (the organisation's name, the recipient's address).
 */
export function answerableAchievementQuery(db: Db, achievementId: AchievementKey) {
  return db
    .select({
      id: achievements.id,
      userId: achievements.userId,
      organizationId: achievements.organizationId,
      organizationName: organizations.name,
      // The organisation's verified domain, which its credentials name as the issuer's url.
      issuerDomain: issuerIdentityColumns(achievements.organizationId).issuerDomain,
      createdBy: achievements.createdBy,
      title: achievements.title,
      description: achievements.description,
      date: achievements.date,
      type: achievements.type,
      imageUrl: achievements.imageUrl,
      videoUrl: achievements.videoUrl,
      status: achievements.status,
      email: users.email,
      // Expiry and renewal (decision 071): the credential carries `validUntil`, and a renewal's
      // names the credential of the entry it renews.
      validUntil: achievements.validUntil,
      renewsAchievementId: achievements.renewsAchievementId,
      renewsCredentialId: sql<string | null>`(select ${credentials.id} from ${credentials}
        where ${credentials.achievementId} = ${achievements.renewsAchievementId})`,
    })
    .from(achievements)
    .leftJoin(organizations, eq(organizations.id, achievements.organizationId))
    .innerJoin(users, eq(users.id, achievements.userId))
    .where(eq(achievements.id, achievementId))
    .limit(1);
}

export type AnswerableAchievement = Awaited<ReturnType<typeof answerableAchievementQuery>>[number];

/**
 * The accepted achievements an organisation gave that carry no credential (the seed's demo
 * world, written as rows, issues theirs afterwards: db/seed.ts, scripts/seed.ts), oldest first.
 */
export async function acceptedWithoutCredential(db: Db, organizationId: string, limit: number) {
  const rows = await db
    .select({ id: achievements.id })
    .from(achievements)
    .leftJoin(credentials, eq(credentials.achievementId, achievements.id))
    .where(
      and(eq(achievements.organizationId, organizationId), eq(achievements.status, "accepted"), isNull(credentials.id)),
    )
    .orderBy(achievements.createdAt, achievements.id)
    .limit(limit);
  return rows.map((row) => row.id);
}

/** As SQL: the achievement is accepted and has no credential yet (the `when` of issuing one late). */
export const acceptedWithoutCredentialYet = (achievementId: string) =>
  sql`exists (select 1 from ${achievements} where ${and(eq(achievements.id, achievementId), eq(achievements.status, "accepted"))})
      and not exists (select 1 from ${credentials} where ${eq(credentials.achievementId, achievementId)})`;

/**
 * The newest signing key registered for an organisation (none before its first), retired or not:
 * a retired newest version means signing moves on to the next one. `organizationId` may be SQL
 * (the organisation of an achievement, read in the same statement).
 */
export function latestKeyOfOrganizationQuery(db: Db, organizationId: string | SQL) {
  return db
    .select({
      version: organizationKeys.version,
      publicKeyMultibase: organizationKeys.publicKeyMultibase,
      retiredAt: organizationKeys.retiredAt,
    })
    .from(organizationKeys)
    .where(eq(organizationKeys.organizationId, organizationId))
    .orderBy(desc(organizationKeys.version))
    .limit(1);
}

/** The newest status list of an organisation with room left, and its next entry. */
export function openStatusListOfOrganizationQuery(db: Db, organizationId: string | SQL, size: number) {
  return db
    .select({ id: credentialStatusLists.id, nextIndex: credentialStatusLists.nextIndex })
    .from(credentialStatusLists)
    .where(and(eq(credentialStatusLists.organizationId, organizationId), lt(credentialStatusLists.nextIndex, size)))
    .orderBy(desc(credentialStatusLists.createdAt))
    .limit(1);
}

/** The newest signing key of the achievement's organisation. */
export const latestKeyOfAchievementQuery = (db: Db, achievementId: AchievementKey) =>
  latestKeyOfOrganizationQuery(db, organizationOfAchievement(achievementId));

/** The newest status list of the achievement's organisation with room left, and its next entry. */
export const openStatusListOfAchievementQuery = (db: Db, achievementId: AchievementKey, size: number) =>
  openStatusListOfOrganizationQuery(db, organizationOfAchievement(achievementId), size);

/**
 * A credential signed and ready to store, with what storing it takes: its status-list entry
 * (in a list that exists, or in a new one), and the signing key's public half when this
 * version is not registered yet.
 */
export type Issuance = {
  credential: typeof credentials.$inferInsert;
  newList: boolean;
  newKey: typeof organizationKeys.$inferInsert | null;
};

/**
 * The statements that store an issuance, each written only `when` holds (the achievement still
 * awaiting the answer that issues it), for the batch that records that answer. The status-list
 * entry and the key version were read before signing: if a concurrent issuance took either
 * first, the unique indexes on (status list, index) and (organisation, version) fail the whole
 * batch, nothing of it stays, and the caller reads and signs again (`isIssuanceRace`).
 */
export function issuanceWrites(db: Db, { credential, newList, newKey }: Issuance, when: SQL) {
  const { statusListId, statusIndex, organizationId } = credential;
  return [
    ...(newKey ? [insertWhen(db, organizationKeys, newKey, when)] : []),
    newList
      ? // Signed on its first request (statusListCredential), like a list a revocation made stale.
        insertWhen(db, credentialStatusLists, { id: statusListId, organizationId, nextIndex: statusIndex + 1 }, when)
      : db
          .update(credentialStatusLists)
          .set({ nextIndex: statusIndex + 1 })
          .where(
            and(eq(credentialStatusLists.id, statusListId), eq(credentialStatusLists.nextIndex, statusIndex), when),
          ),
    insertWhen(db, credentials, credential, when),
  ];
}

/** The batch of `issuanceWrites` failed because a concurrent issuance took its entry or key version. */
export function isIssuanceRace(error: unknown) {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (
      /UNIQUE constraint failed: (credentials\.status_list_id|organization_keys\.organization_id)/.test(cause.message)
    )
      return true;
  }
  return false;
}

/**
 * A credential as its public page shows it; recipient and achievement are gone after a purge.
 * With the organisation's retired key versions, to tell whether its proof may still be served.
 */
export async function findCredential(db: Db, id: string) {
  const [row] = await db
    .select({
      id: credentials.id,
      json: credentials.json,
      organizationId: credentials.organizationId,
      achievementId: credentials.achievementId,
      userId: credentials.userId,
      statusListId: credentials.statusListId,
      statusIndex: credentials.statusIndex,
      issuedAt: credentials.issuedAt,
      revokedAt: credentials.revokedAt,
      supersededBy: credentials.supersededBy,
      // The person's name only where their passport would show it: never for an archived
      // account or a private passport (the page still shows the achievement and its issuer).
      recipientName: sql<
        string | null
      >`case when ${profiles.isPublic} = 1 and ${profiles.deletedAt} is null then ${profiles.fullName} end`,
      retiredKeyVersions: retiredKeyVersionsOf(credentials.organizationId),
    })
    .from(credentials)
    .leftJoin(profiles, eq(profiles.id, credentials.userId))
    .where(eq(credentials.id, id))
    .limit(1);
  return row ?? null;
}

export async function findStatusList(db: Db, id: string) {
  const [row] = await db
    .select({
      id: credentialStatusLists.id,
      organizationId: credentialStatusLists.organizationId,
      credential: credentialStatusLists.credential,
      revision: credentialStatusLists.revision,
      retiredKeyVersions: retiredKeyVersionsOf(credentialStatusLists.organizationId),
    })
    .from(credentialStatusLists)
    .where(eq(credentialStatusLists.id, id))
    .limit(1);
  return row ?? null;
}

/** The revoked entries of one list (at most its size). */
export async function revokedIndexes(db: Db, statusListId: string, size: number) {
  const rows = await db
    .select({ index: credentials.statusIndex })
    .from(credentials)
    .where(and(eq(credentials.statusListId, statusListId), isNotNull(credentials.revokedAt)))
    .limit(size);
  return rows.map((row) => row.index);
}

/**
 * Puts a credential signed again in place of the one it replaces, unless that one changed
 * meanwhile (another re-signing won, or a purge forgot it): compare-and-set on the stored JSON.
 */
export async function replaceCredentialJson(db: Db, id: string, previous: string, json: string) {
  await db
    .update(credentials)
    .set({ json })
    .where(and(eq(credentials.id, id), eq(credentials.json, previous)));
}

/** Stores a freshly signed list unless a revocation made it stale meanwhile (compare-and-set). */
export async function storeStatusListCredential(db: Db, id: string, revision: number, credential: string) {
  await db
    .update(credentialStatusLists)
    .set({ credential })
    .where(and(eq(credentialStatusLists.id, id), eq(credentialStatusLists.revision, revision)));
}

/**
 * Revokes credentials matching `where` (an SQL condition on credentials) and marks their status
 * lists stale, in one batch: the next request for a list re-signs it from `revoked_at`.
 */
function revokeWhere(db: Db, where: ReturnType<typeof sql>, forget: boolean) {
  const now = Date.now();
  return batchSql(db, [
    sql`update credential_status_lists set credential = null, revision = revision + 1
        where id in (select status_list_id from credentials where ${where} and revoked_at is null)`,
    forget
      ? sql`update credentials set revoked_at = coalesce(revoked_at, ${now}), json = null, user_id = null where ${where}`
      : sql`update credentials set revoked_at = ${now} where ${where} and revoked_at is null`,
  ]);
}

export async function revokeCredential(db: Db, id: string) {
  const [, result] = await revokeWhere(db, sql`id = ${id}`, false);
  return (result?.meta.changes ?? 0) > 0;
}

/** A purge: the person's credentials are revoked and only their revoked shells remain. */
export function revokeCredentialsOfUser(db: Db, userId: string) {
  return revokeWhere(db, sql`user_id = ${userId}`, true);
}

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

/** Registers a key version derived for signing (decision 054), if nobody registered it first. */
export function registerKeyVersion(db: Db, key: typeof organizationKeys.$inferInsert) {
  return db.insert(organizationKeys).values(key).onConflictDoNothing();
}

/**
 * What signing a stored credential again needs of it (`reissueStored`): its JSON, organisation and
 * revocation, and its organisation's newest key (null when it has none yet). Select them from a
 * query joining `credentials`, with `newestKeyOfCredential` left-joined.
 */
export const reissueColumns = {
  organizationId: credentials.organizationId,
  json: credentials.json,
  revokedAt: credentials.revokedAt,
  keyVersion: organizationKeys.version,
  keyMultibase: organizationKeys.publicKeyMultibase,
  keyRetiredAt: organizationKeys.retiredAt,
};

/** The join condition of the credential's organisation's newest key, for `reissueColumns`. */
export const newestKeyOfCredential = and(
  eq(organizationKeys.organizationId, credentials.organizationId),
  eq(
    organizationKeys.version,
    sql`(select max(${organizationKeys.version}) from ${organizationKeys}
      where ${organizationKeys.organizationId} = ${credentials.organizationId})`,
  ),
)!;
