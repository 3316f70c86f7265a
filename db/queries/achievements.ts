import { and, count, countDistinct, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import { achievements, organizations, profiles } from "../schema.ts";

/** Upper bound on one list, so no query loads a whole table. */
export const MAX_LISTED_ACHIEVEMENTS = 500;

const passportColumns = {
  id: achievements.id,
  title: achievements.title,
  description: achievements.description,
  date: achievements.date,
  type: achievements.type,
  imageUrl: achievements.imageUrl,
  videoUrl: achievements.videoUrl,
  organizationName: organizations.name,
  isSelf: sql<boolean>`${achievements.organizationId} is null`.mapWith(Boolean),
};

const shownOnPassport = (userId: string) =>
  and(eq(achievements.userId, userId), eq(achievements.status, "accepted"), eq(achievements.isVisible, true));

/**
 * Everything a public passport shows, in one D1 round trip: the profile, the first `limit`
 * accepted and visible achievements (newest first) and how many there are in all.
 */
export async function loadPassport(db: Db, userId: string, limit: number) {
  const [profileRows, entries, [total]] = await db.batch([
    db
      .select({
        fullName: profiles.fullName,
        bio: profiles.bio,
        avatarUrl: profiles.avatarUrl,
        introVideoUrl: profiles.introVideoUrl,
        introVideoThumbnailUrl: profiles.introVideoThumbnailUrl,
        isPublic: profiles.isPublic,
        deletedAt: profiles.deletedAt,
      })
      .from(profiles)
      .where(eq(profiles.id, userId))
      .limit(1),
    db
      .select(passportColumns)
      .from(achievements)
      .leftJoin(organizations, eq(organizations.id, achievements.organizationId))
      .where(shownOnPassport(userId))
      .orderBy(desc(achievements.date), desc(achievements.createdAt))
      .limit(Math.min(limit, MAX_LISTED_ACHIEVEMENTS)),
    db.select({ value: count() }).from(achievements).where(shownOnPassport(userId)),
  ]);
  const profile = profileRows[0];
  return profile ? { profile, achievements: entries, total: total?.value ?? 0 } : null;
}

/** The personal dashboard: counts and the latest few of the user's live achievements. */
export async function loadPersonalSummary(db: Db, userId: string, recent: number) {
  const live = and(eq(achievements.userId, userId), inArray(achievements.status, ["accepted", "pending"]));
  const [[totals], latest] = await db.batch([
    db
      .select({ total: count(), companies: countDistinct(achievements.organizationId) })
      .from(achievements)
      .where(live),
    db
      .select({
        id: achievements.id,
        title: achievements.title,
        description: achievements.description,
        date: achievements.date,
        organizationName: organizations.name,
      })
      .from(achievements)
      .leftJoin(organizations, eq(organizations.id, achievements.organizationId))
      .where(live)
      .orderBy(desc(achievements.date), desc(achievements.createdAt))
      .limit(recent),
  ]);
  return { total: totals?.total ?? 0, companies: totals?.companies ?? 0, latest };
}
