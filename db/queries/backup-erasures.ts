import { eq, lte } from "drizzle-orm";
import { rowsPerInsert, type Db } from "../client.ts";
import { backupErasures } from "../schema.ts";

// The media backup's erasures (issue 43): what a purge erased from the live bucket, kept until the
// backup's copies are erased too.

/** Notes keys and prefixes to erase from the backup from `dueAt`; one noted already keeps its date. */
export async function noteBackupErasures(db: Db, targets: { target: string; isPrefix: boolean }[], dueAt: Date) {
  const rows = targets.map((target) => ({ ...target, dueAt }));
  const size = rowsPerInsert(3);
  for (let start = 0; start < rows.length; start += size)
    await db
      .insert(backupErasures)
      .values(rows.slice(start, start + size))
      .onConflictDoNothing();
}

/** The erasures due at `now`, oldest first, at most `limit`. */
export const dueBackupErasures = (db: Db, now: Date, limit: number) =>
  db
    .select({ target: backupErasures.target, isPrefix: backupErasures.isPrefix })
    .from(backupErasures)
    .where(lte(backupErasures.dueAt, now))
    .orderBy(backupErasures.dueAt)
    .limit(limit);

/** An erasure done: nothing it names is left in the backup. */
export const forgetBackupErasure = (db: Db, target: string) =>
  db.delete(backupErasures).where(eq(backupErasures.target, target));
