import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { insertWhen, inListLimit, type Db } from "../client.ts";
import { batchPart } from "./batch-parts.ts";
import { profiles, storedFiles } from "../schema.ts";

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
 * go of them) stop counting; `counted` files count, each only when `when` holds as the batch runs
 * (the row that points at it was written by an earlier statement of the batch); then the tally.
 */
export function storageChangeStatements(
  db: Db,
  userId: string,
  { counted = [], released = [], when = sql`1` }: { counted?: CountedFile[]; released?: string[]; when?: SQL },
) {
  const statements: BatchItem<"sqlite">[] = [];
  const size = inListLimit(1);
  for (let start = 0; start < released.length; start += size) {
    statements.push(
      db
        .delete(storedFiles)
        .where(and(eq(storedFiles.userId, userId), inArray(storedFiles.key, released.slice(start, start + size)))),
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

/** The person's tally, set to the sum of their counted files. */
export function tallyStatement(db: Db, userId: string) {
  return db
    .update(profiles)
    .set({
      storageBytes: sql`(select coalesce(sum(${storedFiles.bytes}), 0) from ${storedFiles} where ${storedFiles.userId} = ${userId})`,
    })
    .where(eq(profiles.id, userId));
}
