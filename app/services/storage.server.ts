import { countAttempt, userSubject, withinLimit } from "#app/utils/rate-limit.server.ts";
import { STORAGE_QUOTA_BYTES } from "#app/utils/storage-quota.ts";
import type { UploadAllowance } from "#app/utils/storage-quota.server.ts";
import { errorSummary, log } from "#app/utils/log.server.ts";
import { listingsUnder, mediaKeyFromUrl, userMediaPrefixes, type StoredFile } from "#app/utils/media.server.ts";
import {
  countEarlierFiles,
  forgetReleasedFiles,
  keptFileReferences,
  releasedFiles,
  storageBackfillDue,
  storageUsedQuery,
  type CountedFile,
} from "#db/queries/storage.ts";
import type { ServiceContext } from "./context.server.ts";

// Each person's storage (decision 074): their upload rate and what their own files may still
// take, asked as an upload's first file begins; the files are counted by the services that keep
// them, in the batch that writes the row pointing at them (db/queries/storage.ts).

/**
 * What `userId` may upload now: one D1 round trip, taken only when a file is actually sent, that
 * counts the upload against their rate and reads their tally. `counted` is false for files that
 * are not the person's own (an organisation's achievement media): the rate still holds.
 */
export function uploadAllowance(context: ServiceContext, userId: string, { counted }: { counted: boolean }) {
  const allowance: UploadAllowance = async () => {
    const { db } = context;
    const [[attempt], [used]] = await db.batch([
      countAttempt(db, "upload", userSubject(userId), Date.now()),
      storageUsedQuery(db, userId),
    ]);
    if (!withinLimit("upload", attempt)) return { allowed: false };
    const remaining = counted ? Math.max(0, STORAGE_QUOTA_BYTES - (used?.bytes ?? 0)) : Infinity;
    return { allowed: true, remaining };
  };
  return allowance;
}

/** Stored files as the tally counts them. */
export const countedFiles = (files: Iterable<Pick<StoredFile, "key" | "size">>): CountedFile[] =>
  [...files].map((file) => ({ key: file.key, bytes: file.size }));

/** R2 deletes at most this many keys a call. */
const R2_DELETE_BATCH = 1000;

/**
 * Deletes files their rows have let go of (released in the same batch: storageChangeStatements),
 * then forgets them. A delete that fails is logged and left to the frequent cron's
 * `deleteReleasedFiles`; the released row names the file meanwhile, so no object is left that
 * nothing names, and the main write stands.
 */
export async function deleteReleased(context: ServiceContext, keys: string[]) {
  try {
    await deleteAndForget(context, keys);
  } catch (error) {
    log("error", "released files not deleted yet", {
      requestId: context.requestId,
      count: keys.length,
      error: errorSummary(error),
    });
  }
}

/** The cron's retry of released files a request could not delete: a bounded batch, oldest first. */
export async function deleteReleasedFiles(context: ServiceContext, limit = R2_DELETE_BATCH) {
  const keys = (await releasedFiles(context.db, limit)).map((row) => row.key);
  await deleteAndForget(context, keys);
  return { deleted: keys.length };
}

async function deleteAndForget(context: ServiceContext, keys: string[]) {
  if (keys.length === 0) return;
  for (let start = 0; start < keys.length; start += R2_DELETE_BATCH)
    await context.cloudflare.env.MEDIA.delete(keys.slice(start, start + R2_DELETE_BATCH));
  await forgetReleasedFiles(context.db, keys);
}

/** People whose earlier files are counted per daily run, and the files of each kind read per person. */
export const STORAGE_BACKFILL_PER_RUN = 50;
const BACKFILL_FILES_PER_KIND = 2000;

/**
 * Counts the files people kept before the tally existed (migration 0025 started it; 0026 marked
 * everyone then): each file their rows point at, sized from a listing of their own R2 prefixes
 * (a thousand objects a call; a file R2 no longer has counts nothing), then the tally and the
 * cleared mark in one batch. Idempotent: a run cut short is finished by the next one.
 */
export async function backfillStorage(context: ServiceContext, users = STORAGE_BACKFILL_PER_RUN) {
  const due = await storageBackfillDue(context.db, users);
  let files = 0;
  for (const { id } of due) {
    const [{ urls, keys }, sizes] = await Promise.all([
      keptFileReferences(context.db, id, BACKFILL_FILES_PER_KIND),
      objectSizes(context.cloudflare.env.MEDIA, userMediaPrefixes(id)),
    ]);
    const kept = new Set([...urls.map(mediaKeyFromUrl), ...keys]);
    const counted: CountedFile[] = [...sizes].filter(([key]) => kept.has(key)).map(([key, bytes]) => ({ key, bytes }));
    await countEarlierFiles(context.db, id, counted);
    files += counted.length;
  }
  return { people: due.length, files };
}

/** Every object under these prefixes, with its size. */
async function objectSizes(bucket: R2Bucket, prefixes: string[]) {
  const sizes = new Map<string, number>();
  for (const prefix of prefixes) {
    for await (const objects of listingsUnder(bucket, prefix)) {
      for (const object of objects) sizes.set(object.key, object.size);
    }
  }
  return sizes;
}
