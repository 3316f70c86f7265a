import { and, eq, gt, isNull, lt, not, or, sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import { twoFactors, users, verifications } from "../schema.ts";
import { batchPart, runPart } from "./batch-parts.ts";

// A person's authenticator (two-factor sign-in, docs/decisions/060). The auth library creates,
// verifies and deletes the row; the app reads it for Settings and keeps the last code used.

/** Whether two-factor is on, and the authenticator row (its secret still encrypted), if any. */
export function readTwoFactor(db: Db, userId: string) {
  return runPart(db, twoFactorPart(db, userId));
}

/** The same, as a part of a page's batch (Settings reads it with the sessions). */
export function twoFactorPart(db: Db, userId: string) {
  return batchPart(
    [
      db
        .select({
          enabled: users.twoFactorEnabled,
          secret: twoFactors.secret,
          verified: twoFactors.verified,
          lastTotpStep: twoFactors.lastTotpStep,
        })
        .from(users)
        .leftJoin(twoFactors, eq(twoFactors.userId, users.id))
        .where(eq(users.id, userId)),
    ],
    ([rows]) => rows[0] ?? null,
  );
}
export type TwoFactorRow = Awaited<ReturnType<typeof readTwoFactor>>;

/**
 * Records the time step of a code just accepted. False when this step, or a later one, was
 * already used: the code is being replayed (or raced), and must not count.
 */
export async function spendTotpStep(db: Db, { userId, step }: { userId: string; step: number }) {
  const spent = await db
    .update(twoFactors)
    .set({ lastTotpStep: step })
    .where(and(eq(twoFactors.userId, userId), or(isNull(twoFactors.lastTotpStep), lt(twoFactors.lastTotpStep, step))))
    .returning({ id: twoFactors.id });
  return spent.length > 0;
}

/** The person a pending second sign-in step belongs to (its challenge id, from the signed cookie). */
export async function findPendingSignIn(db: Db, challenge: string, now = new Date()) {
  const [row] = await db
    .select({ userId: verifications.value })
    .from(verifications)
    .where(and(eq(verifications.identifier, challenge), gt(verifications.expiresAt, now)))
    .limit(1);
  return row?.userId ?? null;
}

/** A person's recovery codes (their hashes, as JSON), in place of the ones before. */
export async function replaceRecoveryCodes(db: Db, userId: string, backupCodes: string) {
  await db.update(twoFactors).set({ backupCodes }).where(eq(twoFactors.userId, userId));
}

/**
 * Authenticators whose secret is not under `currentPrefix` (the current version's envelope), or
 * whose recovery codes are not a JSON list of hashes yet (decision 098): at most `limit`.
 */
export function staleTwoFactors(db: Db, currentPrefix: string, limit: number) {
  return db
    .select({ id: twoFactors.id, secret: twoFactors.secret, backupCodes: twoFactors.backupCodes })
    .from(twoFactors)
    .where(
      or(not(sql`${twoFactors.secret} like ${`${currentPrefix}%`}`), not(sql`${twoFactors.backupCodes} like '[%'`)),
    )
    .limit(limit);
}

/** Writes re-wrapped authenticators, each only if it is still as it was read (one batch). */
export async function rewriteTwoFactors(
  db: Db,
  rows: { id: string; secret: string; backupCodes: string; newSecret: string; newBackupCodes: string }[],
) {
  const [first, ...rest] = rows.map((row) =>
    db
      .update(twoFactors)
      .set({ secret: row.newSecret, backupCodes: row.newBackupCodes })
      .where(
        and(eq(twoFactors.id, row.id), eq(twoFactors.secret, row.secret), eq(twoFactors.backupCodes, row.backupCodes)),
      ),
  );
  if (first) await db.batch([first, ...rest]);
}
