import { and, eq, isNotNull, lt, or } from "drizzle-orm";
import type { Db } from "../client.ts";
import { achievements, profiles, users } from "../schema.ts";


export async function findAccountsArchivedBefore(db: Db, cutoff: Date, limit = 50) {
  const rows = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(and(isNotNull(profiles.deletedAt), lt(profiles.deletedAt, cutoff)))
    .limit(limit);
  return rows.map((row) => row.id);
}

/** Media URLs on achievements the user received or created, which are purged with them. */
export async function findAchievementMediaOf(db: Db, userId: string) {
  return db
    .select({ imageUrl: achievements.imageUrl, videoUrl: achievements.videoUrl })
    .from(achievements)
    .where(or(eq(achievements.userId, userId), eq(achievements.createdBy, userId)));
}

/** Deletes the user; every row that belongs to them goes with it through ON DELETE CASCADE. */
export async function deleteUser(db: Db, userId: string) {
  await db.delete(users).where(eq(users.id, userId));
}
