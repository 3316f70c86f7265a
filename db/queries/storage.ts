import { and, eq, inArray, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { insertWhen, inListLimit, type Db } from "../client.ts";
import { batchPart } from "./batch-parts.ts";
import { achievements, importedCredentials, profiles, storedFiles } from "../schema.ts";

// A person's stored files and their byte tally (decision 074). Each write here is a statement for
// the batch that also writes the row pointing at the file, so the tally never drifts from what
// the rows point at: a file is counted with the row that keeps it and uncounted with the row that
// lets it go. The tally is recomputed from the person's rows in the same batch, never adjusted.

export type CountedFile = { key: string; bytes: number };

/** Bytes the person's files take now. */
export async function storageUsed(db: Db, userId: string) {
  const [row] = await storageUsedQuery(db, userId);
  return row?.bytes ?? 0;
}

export function storageUsedQuery(db: Db, userId: string) {
  return db.select({ bytes: profiles.storageBytes }).from(profiles).where(eq(profiles.id, userId)).limit(1);
}

/** The same as a part of a page's batch. */
export function storageUsedPart(db: Db, userId: string) {
  return batchPart([storageUsedQuery(db, userId)] as const, ([rows]) => rows[0]?.bytes ?? 0);
}

/**
 * The statements that change which files count as the person's: `released` keys (their row let
 * go of them) stop counting, marked released so that this row still names the file until R2 has
 * deleted it (`releasedFiles`, `forgetReleasedFiles`); `counted` files count, each only when `when`
 * holds as the batch runs (the row that points at it was written by an earlier statement of the
 * batch); then the tally.
 */
export function storageChangeStatements(
  db: Db,
  userId: string,
  { counted = [], released = [], when = sql`1` }: { counted?: CountedFile[]; released?: string[]; when?: SQL },
) {
  const statements: BatchItem<"sqlite">[] = [];
  const releasedAt = new Date();
  const kept = new Set(counted.map((file) => file.key));
  for (const key of released.filter((key) => !kept.has(key))) {
    // A file stored before the tally existed (migration 0025) has no row yet: it gets one, released.
    statements.push(
      db
        .insert(storedFiles)
        .values({ key, userId, bytes: 0, releasedAt, createdAt: releasedAt })
        .onConflictDoUpdate({ target: storedFiles.key, set: { releasedAt }, setWhere: eq(storedFiles.userId, userId) }),
    );
  }
  for (const file of counted) {
    statements.push(
      insertWhen(
        db,
        storedFiles,
        { key: file.key, userId, bytes: file.bytes, createdAt: new Date() },
        when,
      ).onConflictDoNothing(),
    );
  }
  statements.push(tallyStatement(db, userId));
  return statements;
}

/** Released files R2 has still to delete, oldest first (a bounded batch for the cron). */
export function releasedFiles(db: Db, limit: number) {
  return db
    .select({ key: storedFiles.key })
    .from(storedFiles)
    .where(isNotNull(storedFiles.releasedAt))
    .orderBy(storedFiles.releasedAt)
    .limit(limit);
}

/** Forgets released files once R2 has deleted them. */
export async function forgetReleasedFiles(db: Db, keys: string[]) {
  const size = inListLimit(0);
  for (let start = 0; start < keys.length; start += size) {
    await db
      .delete(storedFiles)
      .where(and(isNotNull(storedFiles.releasedAt), inArray(storedFiles.key, keys.slice(start, start + size))));
  }
}

/** The person's tally, set to the sum of their counted files. */
export function tallyStatement(db: Db, userId: string) {
  return db
    .update(profiles)
    .set({
      storageBytes: countedBytes(userId),
    })
    .where(eq(profiles.id, userId));
}

/** The sum of the person's counted (unreleased) files, as SQL for the tally's update. */
const countedBytes = (userId: string) =>
  sql`(select coalesce(sum(${storedFiles.bytes}), 0) from ${storedFiles} where ${storedFiles.userId} = ${userId} and ${storedFiles.releasedAt} is null)`;

// ---- Files kept before the tally existed (migration 0025), counted by the daily cron ----

/** People whose files predate the tally and are not counted yet (a bounded batch). */
export function storageBackfillDue(db: Db, limit: number) {
  return db.select({ id: profiles.id }).from(profiles).where(eq(profiles.storageBackfillPending, true)).limit(limit);
}

/**
 * What the person's rows point at that counts as theirs (decision 074): their avatar, introduction
 * video and thumbnail, their self achievements' media and their imports' originals (as URLs or
 * keys; at most `limit` of each kind). An organisation's achievement media counts against nobody.
 */
export async function keptFileReferences(db: Db, userId: string, limit: number) {
  const [profile, selfMedia, originals] = await db.batch([
    db
      .select({ avatar: profiles.avatarUrl, video: profiles.introVideoUrl, thumbnail: profiles.introVideoThumbnailUrl })
      .from(profiles)
      .where(eq(profiles.id, userId)),
    db
      .select({ image: achievements.imageUrl, video: achievements.videoUrl })
      .from(achievements)
      .where(and(eq(achievements.userId, userId), isNull(achievements.organizationId)))
      .limit(limit),
    db
      .select({ key: importedCredentials.originalKey })
      .from(importedCredentials)
      .where(eq(importedCredentials.userId, userId))
      .limit(limit),
  ]);
  return {
    urls: [
      ...profile.flatMap((row) => [row.avatar, row.video, row.thumbnail]),
      ...selfMedia.flatMap((row) => [row.image, row.video]),
    ],
    keys: originals.map((row) => row.key),
  };
}

/** Counts the person's earlier files and clears their mark, in one batch (the tally in the same update). */
export async function countEarlierFiles(db: Db, userId: string, files: CountedFile[]) {
  const createdAt = new Date();
  // Four parameters a row, within D1's 100 a statement.
  const rowsPerInsert = Math.floor(inListLimit(0) / 4);
  const inserts = [];
  for (let start = 0; start < files.length; start += rowsPerInsert) {
    const rows = files.slice(start, start + rowsPerInsert).map(({ key, bytes }) => ({ key, userId, bytes, createdAt }));
    inserts.push(db.insert(storedFiles).values(rows).onConflictDoNothing());
  }
  const [first, ...rest] = inserts;
  // After the inserts: the tally sums them.
  const tally = db
    .update(profiles)
    .set({ storageBytes: countedBytes(userId), storageBackfillPending: false })
    .where(eq(profiles.id, userId));
  await db.batch(first ? [first, ...rest, tally] : [tally]);
}
