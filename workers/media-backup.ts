import type { Db } from "#db/client.ts";
import { dueBackupErasures, forgetBackupErasure } from "#db/queries/backup-erasures.ts";
import { log } from "./middleware/request-log.ts";

// The media backup (docs/operations.md, decision 077): every object written to the live bucket is
// copied once to a second bucket, which the app never deletes from (a bucket lock keeps each copy
// 35 days in production). Every key is written once (a random UUID per upload), so copying each
// new object is a complete backup. Two ways in: R2's event notifications on the live bucket feed
// the `media-backup` queue, whose messages this Worker consumes; and a daily reconciliation walks
// the live bucket a bounded stretch at a time and copies what the backup lacks (a lost message, a
// consumer that was down, objects written before the backup existed). What a purge erased from
// the live bucket is erased here too once the lock lets go of it (issue 43).

/** The body of an R2 event notification (the fields used here). */
type R2Event = { action?: string; object?: { key?: string } };
const WRITES = new Set(["PutObject", "CopyObject", "CompleteMultipartUpload"]);

/** A check's file awaiting 'Add to passport' (overwritten by the next check) is never kept. */
const isKept = (key: string) => !/^imports\/[^/]+\/pending$/.test(key);

/** Copies `key` from the live bucket to the backup; false when the live bucket no longer has it. */
async function copyToBackup(env: Pick<Env, "MEDIA" | "MEDIA_BACKUP">, key: string) {
  if (!isKept(key)) return false;
  const object = await env.MEDIA.get(key);
  if (!object) return false;
  try {
    await env.MEDIA_BACKUP.put(key, object.body, {
      httpMetadata: object.httpMetadata,
      customMetadata: object.customMetadata,
      sha256: object.checksums.sha256,
    });
  } catch (error) {
    // The live object's stream is not left open behind a failed copy.
    await object.body.cancel().catch(() => undefined);
    throw error;
  }
  return true;
}

/** The queue's consumer: each written object copied; a failed copy is retried by the queue. */
export const queue: ExportedHandlerQueueHandler<Env> = async (batch, env) => {
  for (const message of batch.messages) {
    const event = (message.body ?? {}) as R2Event;
    const key = event.object?.key;
    if (!key || !WRITES.has(event.action ?? "")) {
      message.ack();
      continue;
    }
    try {
      // An object deleted before its copy (a replaced avatar) has nothing left to keep.
      await copyToBackup(env, key);
      message.ack();
    } catch (error) {
      log("error", "media backup copy failed", { key, attempt: message.attempts, error: String(error) });
      message.retry();
    }
  }
};

/** Where the reconciliation stopped: kept in the backup bucket, beside what it reconciles. */
export const RECONCILE_CURSOR_KEY = "_backup/reconcile-cursor";
/** Live-bucket keys looked at per daily run (a thousand a listing). */
export const RECONCILE_KEYS_PER_RUN = 5000;

/**
 * Copies to the backup the live objects it lacks, over the next stretch of the live bucket's keys
 * (in key order, from where the last run stopped; back to the start after the end), comparing one
 * listing of each bucket per thousand keys.
 */
export async function reconcileMediaBackup(env: Pick<Env, "MEDIA" | "MEDIA_BACKUP">, keys = RECONCILE_KEYS_PER_RUN) {
  const cursorObject = await env.MEDIA_BACKUP.get(RECONCILE_CURSOR_KEY);
  let after = cursorObject ? await cursorObject.text() : "";
  let looked = 0;
  let copied = 0;
  while (looked < keys) {
    const live = await env.MEDIA.list({ startAfter: after || undefined, limit: Math.min(1000, keys - looked) });
    if (live.objects.length === 0) {
      after = "";
      break;
    }
    const last = live.objects.at(-1)!.key;
    const present = await keysBetween(env.MEDIA_BACKUP, after, last);
    for (const object of live.objects) {
      if (!present.has(object.key) && (await copyToBackup(env, object.key))) copied += 1;
    }
    looked += live.objects.length;
    after = live.truncated ? last : "";
    if (!live.truncated) break;
  }
  await env.MEDIA_BACKUP.put(RECONCILE_CURSOR_KEY, after);
  return { looked, copied };
}

/** The backup's keys after `after` up to and including `last`. */
async function keysBetween(bucket: R2Bucket, after: string, last: string) {
  const keys = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ startAfter: after || undefined, cursor });
    for (const object of page.objects) {
      if (object.key > last) return keys;
      keys.add(object.key);
    }
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return keys;
}

/** Erasures looked at per daily run; a prefix's copies go a listing (a thousand) at a time. */
export const ERASURES_PER_RUN = 200;

/**
 * Erases from the backup what purges erased from the live bucket, once due (past the lock): each
 * key, and each prefix's copies a listing a run, forgetting an erasure only when nothing it names
 * is left. One that fails (the lock still holding) is logged and tried again the next day.
 */
export async function eraseFromBackup({ db, backup }: { db: Db; backup: R2Bucket }, now: Date) {
  let erased = 0;
  let failed = 0;
  for (const { target, isPrefix } of await dueBackupErasures(db, now, ERASURES_PER_RUN)) {
    try {
      const page = isPrefix ? await backup.list({ prefix: target }) : null;
      const keys = page ? page.objects.map((object) => object.key) : [target];
      if (keys.length) await backup.delete(keys);
      erased += page ? keys.length : 1;
      if (!page?.truncated) await forgetBackupErasure(db, target);
    } catch (error) {
      failed += 1;
      log("error", "backup erasure failed", { target, error: String(error) });
    }
  }
  return { erased, failed };
}
