import { and, desc, eq, isNotNull, isNull, lt, sql, type SQL } from "drizzle-orm";
import { insertWhen, type Db } from "../../client.ts";
import {
  achievements,
  credentials,
  credentialStatusLists,
  organizationKeys,
  organizations,
  users,
} from "../../schema.ts";
import { issuerIdentityColumns } from "../organization-domains.ts";

// Issuing a credential: what signing it reads (the achievement, the organisation's newest key and
// open status list), and the writes that store it with the answer that issues it.

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

/** The accepted achievements whose credential is still to be signed (issue 43), oldest first. */
export function dueCredentials(db: Db, limit: number) {
  return db
    .select({ id: achievements.id, userId: achievements.userId, credentialDue: achievements.credentialDue })
    .from(achievements)
    .where(isNotNull(achievements.credentialDue))
    .orderBy(achievements.createdAt, achievements.id)
    .limit(limit);
}

/** The achievement leaves the queue of credentials to sign. */
export const clearCredentialDue = (db: Db, achievementId: string) =>
  db.update(achievements).set({ credentialDue: null }).where(eq(achievements.id, achievementId));

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

/** Registers a key version derived for signing (decision 054), if nobody registered it first. */
export function registerKeyVersion(db: Db, key: typeof organizationKeys.$inferInsert) {
  return db.insert(organizationKeys).values(key).onConflictDoNothing();
}
