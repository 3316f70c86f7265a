import { and, eq, gt, isNull, lt, or } from "drizzle-orm";
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
