import { countAttempt, userSubject, withinLimit } from "#app/utils/rate-limit.server.ts";
import { STORAGE_QUOTA_BYTES } from "#app/utils/storage-quota.ts";
import type { StoredFile, UploadAllowance } from "#app/utils/uploads.server.ts";
import { storageUsedQuery, type CountedFile } from "#db/queries/storage.ts";
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
