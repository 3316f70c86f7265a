import { and, eq, isNotNull, sql } from "drizzle-orm";
import { batchSql, type Db } from "../client.ts";
import { achievements, credentials, credentialStatusLists, organizations, profiles, users } from "../schema.ts";
import { keyset, toPage, type PageRequest } from "./paging.ts";

/** What a credential says about an accepted organisation achievement, and who it is for. */
export async function findIssuable(db: Db, achievementId: string) {
  const [row] = await db
    .select({
      id: achievements.id,
      userId: achievements.userId,
      organizationId: achievements.organizationId,
      organizationName: organizations.name,
      title: achievements.title,
      description: achievements.description,
      date: achievements.date,
      type: achievements.type,
      imageUrl: achievements.imageUrl,
      videoUrl: achievements.videoUrl,
      status: achievements.status,
      email: users.email,
    })
    .from(achievements)
    .innerJoin(organizations, eq(organizations.id, achievements.organizationId))
    .innerJoin(users, eq(users.id, achievements.userId))
    .where(eq(achievements.id, achievementId))
    .limit(1);
  return row ?? null;
}

export async function findCredentialIdOfAchievement(db: Db, achievementId: string) {
  const [row] = await db
    .select({ id: credentials.id })
    .from(credentials)
    .where(eq(credentials.achievementId, achievementId))
    .limit(1);
  return row?.id ?? null;
}

/**
 * Takes the next free entry of the organisation's newest status list that has room, in one
 * statement (concurrent issuers never get the same index). Null when no list has room.
 */
export async function takeStatusIndex(db: Db, organizationId: string, size: number) {
  const [row] = await db
    .update(credentialStatusLists)
    .set({ nextIndex: sql`${credentialStatusLists.nextIndex} + 1` })
    .where(
      eq(
        credentialStatusLists.id,
        sql`(select id from credential_status_lists where organization_id = ${organizationId} and next_index < ${size} order by created_at desc limit 1)`,
      ),
    )
    .returning({ statusListId: credentialStatusLists.id, nextIndex: credentialStatusLists.nextIndex });
  return row ? { statusListId: row.statusListId, statusIndex: row.nextIndex - 1 } : null;
}

export async function insertStatusList(db: Db, organizationId: string) {
  const [row] = await db
    .insert(credentialStatusLists)
    .values({ organizationId })
    .returning({ id: credentialStatusLists.id });
  return row!.id;
}

export async function insertCredential(db: Db, row: typeof credentials.$inferInsert) {
  const rows = await db.insert(credentials).values(row).onConflictDoNothing().returning({ id: credentials.id });
  return rows.length > 0;
}

/** A credential as its public page shows it; recipient and achievement are gone after a purge. */
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
      recipientName: profiles.fullName,
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
      .select({
        id: achievements.id,
        title: achievements.title,
        date: achievements.date,
        status: achievements.status,
        recipientName: profiles.fullName,
        // Aliased: a batch reads rows as objects, where a second "id" would overwrite the first.
        credentialId: sql<string | null>`${credentials.id}`.as("credential_id"),
        revokedAt: credentials.revokedAt,
        createdAt: achievements.createdAt,
      })
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
