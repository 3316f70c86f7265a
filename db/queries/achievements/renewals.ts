import { and, eq, isNull, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../client.ts";
import { achievements, credentials, endorsements, organizations } from "../../schema.ts";

// Expiry and renewal (decision 071): what renewing an entry reads of it, and how accepting the
// renewal folds the entry it renews into its history.

/** What a renewal copies of the entry it renews (decision 071). */
export type Renewal = { renewsAchievementId: string; renewalCount: number; firstGivenOn: string };

/**
 * Accepting a renewal folds the entry it renews into its history (decision 071), in the batch
 * that records the answer and only while `when` holds: the older entry leaves the passport lists,
 * its endorsements move to the renewal (issue 43), and its credential says which one superseded
 * it (it still verifies, as a membership's does).
 */
export function foldRenewedWrites(
  db: Db,
  {
    renewsAchievementId,
    renewalId,
    userId,
    credentialId,
  }: {
    renewsAchievementId: string;
    renewalId: string;
    userId: string;
    credentialId: string | null;
  },
  when: SQL,
) {
  return [
    // Its endorsements go with it (issue 43): they endorsed this achievement in its earlier term,
    // and each still names that entry (`urn:uuid:` of the older one) in what its endorser signed.
    // A renewal is endorsed only once it shows, after this; should it have any, nothing moves, so
    // the one-per-endorser indexes can never fail the acceptance.
    db
      .update(endorsements)
      .set({ achievementId: renewalId })
      .where(
        and(
          eq(endorsements.achievementId, renewsAchievementId),
          eq(endorsements.ownerId, userId),
          sql`not exists (select 1 from ${endorsements} where ${endorsements.achievementId} = ${renewalId})`,
          when,
        ),
      ),
    db
      .update(achievements)
      .set({ renewedBy: renewalId })
      .where(
        and(
          eq(achievements.id, renewsAchievementId),
          eq(achievements.userId, userId),
          isNull(achievements.renewedBy),
          when,
        ),
      ),
    ...(credentialId
      ? [
          db
            .update(credentials)
            .set({ supersededBy: credentialId })
            .where(and(eq(credentials.achievementId, renewsAchievementId), isNull(credentials.supersededBy), when)),
        ]
      : []),
  ];
}

/**
 * What renewing an organisation's entry needs of it (decision 071): what the renewal copies,
 * whether it is the live end of its chain, and the live renewal already given for it (with the
 * form render that gave it, so a double submit is answered as the first).
 */
export function renewableAchievementQuery(db: Db, id: string) {
  const renewal = sql`from ${achievements} as renewal where renewal.renews_achievement_id = ${achievements.id}
    and renewal.status != 'rejected'`;
  return db
    .select({
      id: achievements.id,
      userId: achievements.userId,
      organizationId: achievements.organizationId,
      organizationName: organizations.name,
      title: achievements.title,
      description: achievements.description,
      type: achievements.type,
      imageUrl: achievements.imageUrl,
      videoUrl: achievements.videoUrl,
      date: achievements.date,
      status: achievements.status,
      renewedBy: achievements.renewedBy,
      renewalCount: achievements.renewalCount,
      firstGivenOn: achievements.firstGivenOn,
      revokedAt: credentials.revokedAt,
      liveRenewalId: sql<string | null>`(select renewal.id ${renewal} limit 1)`,
      liveRenewalKey: sql<string | null>`(select renewal.submission_key ${renewal} limit 1)`,
    })
    .from(achievements)
    .leftJoin(organizations, eq(organizations.id, achievements.organizationId))
    .leftJoin(credentials, eq(credentials.achievementId, achievements.id))
    .where(eq(achievements.id, id))
    .limit(1);
}
