import { subDays } from "date-fns";
import type { Db } from "#db/client.ts";
import { deleteUser, findAccountsArchivedBefore, findAchievementMediaOf } from "#db/queries/accounts.ts";
import { revokeCredentialsOfUser } from "#db/queries/credentials.ts";
import { ARCHIVE_GRACE_DAYS } from "./constants.ts";
import { invalidatePassports } from "./passport-cache.server.ts";
import { deleteByPrefix, deleteMedia, userMediaPrefixes } from "./media.server.ts";

/**
 * Deletes every R2 object and every row of one user. Objects go first: if that fails, the rows
 * remain and the next run tries again, so nothing is left orphaned in R2.
 */
export async function purgeUser(db: Db, media: R2Bucket, userId: string) {
  const achievementMedia = await findAchievementMediaOf(db, userId);
  await deleteMedia(
    media,
    achievementMedia.flatMap((row) => [row.imageUrl, row.videoUrl]),
  );
  for (const prefix of userMediaPrefixes(userId)) await deleteByPrefix(media, prefix);
  // The person's credentials are revoked and forgotten (decision 020): copies they handed out
  // verify as revoked, and only revoked shells without their data stay.
  await revokeCredentialsOfUser(db, userId);
  await deleteUser(db, userId);
  await invalidatePassports(userId);
}

const PURGE_BATCH_SIZE = 50;
const MAX_BATCHES_PER_RUN = 10;

/**
 * The daily cron: purges accounts archived more than the grace period ago, in bounded batches
 * (what does not fit in one run waits for the next). Returns the ids it purged.
 */
export async function purgeExpiredAccounts(db: Db, media: R2Bucket, now = new Date()) {
  const cutoff = subDays(now, ARCHIVE_GRACE_DAYS);
  const purged: string[] = [];
  for (let batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
    const userIds = await findAccountsArchivedBefore(db, cutoff, PURGE_BATCH_SIZE);
    for (const userId of userIds) await purgeUser(db, media, userId);
    purged.push(...userIds);
    if (userIds.length < PURGE_BATCH_SIZE) break;
  }
  return purged;
}
