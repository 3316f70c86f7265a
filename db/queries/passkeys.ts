import { and, asc, count, eq } from "drizzle-orm";
import type { Db } from "../client.ts";
import { passkeys } from "../schema.ts";
import { batchPart } from "./batch-parts.ts";

// A person's passkeys (docs/decisions/061). The auth library creates a row when a passkey is
// added and moves its counter at each sign-in; the app names, dates and removes them.

/** How many passkeys one person may hold: enough for every device and password manager. */
export const MAX_PASSKEYS = 20;

/** The person's passkeys, oldest first (all of them: at most MAX_PASSKEYS), as a part of a page's batch. */
export function passkeysPart(db: Db, userId: string) {
  return batchPart(
    [
      db
        .select({
          id: passkeys.id,
          name: passkeys.name,
          aaguid: passkeys.aaguid,
          deviceType: passkeys.deviceType,
          createdAt: passkeys.createdAt,
          lastUsedAt: passkeys.lastUsedAt,
        })
        .from(passkeys)
        .where(eq(passkeys.userId, userId))
        .orderBy(asc(passkeys.createdAt), asc(passkeys.id))
        .limit(MAX_PASSKEYS),
    ],
    ([rows]) => rows,
  );
}

export async function countPasskeys(db: Db, userId: string) {
  const [row] = await db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId));
  return row?.n ?? 0;
}

/** Notes a sign-in with the passkey. */
export async function markPasskeyUsed(db: Db, { credentialId, at }: { credentialId: string; at: Date }) {
  await db.update(passkeys).set({ lastUsedAt: at }).where(eq(passkeys.credentialID, credentialId));
}

/** Names one of the person's passkeys; false when they have no such passkey. */
export async function setPasskeyName(db: Db, { userId, id, name }: { userId: string; id: string; name: string }) {
  const rows = await db
    .update(passkeys)
    .set({ name })
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning({ id: passkeys.id });
  return rows.length > 0;
}

/** Removes one of the person's passkeys; false when they have no such passkey. */
export async function deletePasskeyOf(db: Db, { userId, id }: { userId: string; id: string }) {
  const rows = await db
    .delete(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning({ id: passkeys.id });
  return rows.length > 0;
}

/** Which of the person's passkeys a credential id is (its row id), if it is one of theirs. */
export async function passkeyIdOfCredential(
  db: Db,
  { userId, credentialId }: { userId: string; credentialId: string },
) {
  const [row] = await db
    .select({ id: passkeys.id })
    .from(passkeys)
    .where(and(eq(passkeys.userId, userId), eq(passkeys.credentialID, credentialId)))
    .limit(1);
  return row?.id ?? null;
}
