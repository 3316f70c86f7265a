import { and, eq, isNotNull, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { batchSql, type Db } from "../../client.ts";
import { credentials, credentialStatusLists, organizationKeys, profiles } from "../../schema.ts";

// Credentials once stored: read to be served (with the key versions their proofs must not carry),
// signed again, and revoked.

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
