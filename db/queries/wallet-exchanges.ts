import { and, eq, gt, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import { insertWhen, type Db } from "../client.ts";
import { newestKeyOfCredential, reissueColumns } from "./credentials/stored.ts";
import { achievements, credentialHolders, credentials, organizationKeys, walletExchanges } from "../schema.ts";
import type { WalletExchangePurpose } from "../enums.ts";

// One-time exchanges with a holder's wallet (decision 064). Each is made by its person for one
// of their own credentials, answered at most once, within its 15 minutes.

/**
 * Opens an exchange for the credential of `achievementId`, only if that is the person's own
 * accepted achievement with an unrevoked credential: the owner and the credential come from the
 * rows, in the one statement that writes (none written otherwise). The new row's id, or null.
 */
export async function openWalletExchange(
  db: Db,
  exchange: { id: string; userId: string; achievementId: string; challenge: string; createdAt: Date; expiresAt: Date },
) {
  const issued = sql`from ${credentials} join ${achievements} on ${achievements.id} = ${credentials.achievementId}
    where ${credentials.achievementId} = ${exchange.achievementId} and ${credentials.userId} = ${exchange.userId}
      and ${achievements.userId} = ${exchange.userId} and ${achievements.status} = 'accepted'
      and ${credentials.revokedAt} is null and ${credentials.json} is not null`;
  const [row] = await insertWhen(
    db,
    walletExchanges,
    { ...exchange, purpose: "issue", credentialId: sql`(select ${credentials.id} ${issued})` },
    sql`exists (select 1 ${issued})`,
  ).returning({ id: walletExchanges.id });
  return row?.id ?? null;
}

/** The person's own exchange as /passport shows it (another person's id reads nothing). */
export async function findOwnWalletExchange(db: Db, userId: string, id: string) {
  const [row] = await db
    .select({
      id: walletExchanges.id,
      // The joined row's: the same id, never null.
      achievementId: achievements.id,
      title: achievements.title,
      challenge: walletExchanges.challenge,
      expiresAt: walletExchanges.expiresAt,
      usedAt: walletExchanges.usedAt,
    })
    .from(walletExchanges)
    .innerJoin(achievements, eq(achievements.id, walletExchanges.achievementId))
    .where(and(eq(walletExchanges.id, id), eq(walletExchanges.userId, userId)))
    .limit(1);
  return row ?? null;
}

/**
 * An exchange as its answer needs it, with its credential and the organisation's newest signing
 * key: one statement, for the batch that also counts the attempt (one D1 round trip).
 */
export function exchangeToAnswerQuery(db: Db, id: string) {
  return db
    .select({
      challenge: walletExchanges.challenge,
      expiresAt: walletExchanges.expiresAt,
      usedAt: walletExchanges.usedAt,
      ...reissueColumns,
    })
    .from(walletExchanges)
    .innerJoin(credentials, eq(credentials.id, walletExchanges.credentialId))
    .leftJoin(organizationKeys, newestKeyOfCredential)
    .where(and(eq(walletExchanges.id, id), eq(walletExchanges.purpose, "issue")))
    .limit(1);
}

/**
 * Marks the exchange used by `holder`, keeping the copy signed for it (`credentialJson`) for the
 * credential's downloads, only if it still is unused, unexpired, for this challenge
 * and its credential unrevoked: of two answers at once, exactly one gets the row back. `alsoWrite`
 * (a new key version's registration) goes in the same batch: one D1 round trip.
 */
export async function spendWalletExchange(
  db: Db,
  {
    id,
    challenge,
    holder,
    now,
    credentialJson,
  }: { id: string; challenge: string; holder: string; now: Date; credentialJson: string },
  alsoWrite: { organizationId: string; version: number; publicKeyMultibase: string } | null,
) {
  const unrevoked: SQL = sql`not exists (select 1 from ${credentials}
    where ${credentials.id} = ${walletExchanges.credentialId} and ${credentials.revokedAt} is not null)`;
  const use = db
    .update(walletExchanges)
    .set({ usedAt: now, holder })
    .where(
      and(
        eq(walletExchanges.id, id),
        eq(walletExchanges.challenge, challenge),
        isNull(walletExchanges.usedAt),
        gt(walletExchanges.expiresAt, now),
        unrevoked,
      ),
    )
    .returning({ id: walletExchanges.id });
  // The holder DID remembered for the person's Settings and downloads (decision 066), only if
  // this answer spent the exchange: the row outlives the exchange, which the cron deletes.
  const spent = sql`exists (select 1 from ${walletExchanges} where ${walletExchanges.id} = ${id}
    and ${walletExchanges.usedAt} = ${now.getTime()} and ${walletExchanges.holder} = ${holder})`;
  const remember = insertWhen(
    db,
    credentialHolders,
    {
      id: crypto.randomUUID(),
      userId: sql`(select ${walletExchanges.userId} from ${walletExchanges} where ${walletExchanges.id} = ${id})`,
      credentialId: sql`(select ${walletExchanges.credentialId} from ${walletExchanges} where ${walletExchanges.id} = ${id})`,
      holder,
      issuedAt: now,
      credentialJson,
    },
    spent,
  ).onConflictDoUpdate({
    target: [credentialHolders.credentialId, credentialHolders.holder],
    set: { issuedAt: now, credentialJson },
  });
  // Registered whether or not the exchange was used: the key is derived, as rotateKey registers it.
  const [used] = await db.batch([
    use,
    remember,
    ...(alsoWrite ? [db.insert(organizationKeys).values(alsoWrite).onConflictDoNothing()] : []),
  ]);
  return used.length === 1;
}

/**
 * Opens an 'import' exchange (decision 099): its DIDAuth will prove the wallet DID that the
 * person's pending import (`importNonce`) was issued to. No achievement: nothing is handed out.
 */
export async function openImportExchange(
  db: Db,
  exchange: { id: string; userId: string; importNonce: string; challenge: string; createdAt: Date; expiresAt: Date },
) {
  await db.insert(walletExchanges).values({ ...exchange, purpose: "import" });
}

/** An 'import' exchange as its answer reads it (in the batch that counts the attempt). */
export function importExchangeQuery(db: Db, id: string) {
  return db
    .select({
      challenge: walletExchanges.challenge,
      expiresAt: walletExchanges.expiresAt,
      usedAt: walletExchanges.usedAt,
    })
    .from(walletExchanges)
    .where(and(eq(walletExchanges.id, id), eq(walletExchanges.purpose, "import")))
    .limit(1);
}

/** An answer spending exchange `id`: the challenge it signed, the DID that signed, and when. */
export type ExchangeUse = { id: string; challenge: string; holder: string; now: Date };

/** The exchange `id` of `purpose` while `challenge` may still spend it: unused and unexpired. */
export const spendable = (purpose: WalletExchangePurpose, { id, challenge, now }: ExchangeUse) =>
  and(
    eq(walletExchanges.id, id),
    eq(walletExchanges.purpose, purpose),
    eq(walletExchanges.challenge, challenge),
    isNull(walletExchanges.usedAt),
    gt(walletExchanges.expiresAt, now),
  );

/** How long a wallet's proof for an import is kept for 'Add' (the daily clean-up then deletes it). */
export const IMPORT_PROOF_KEPT_MS = 24 * 60 * 60 * 1000;

/**
 * Marks an 'import' exchange used by `holder`, only if still spendable: one answer wins. The proof
 * is then kept a day (its `expires_at` moved on: a used exchange is never spent again).
 */
export async function spendImportExchange(db: Db, use: ExchangeUse) {
  const used = await db
    .update(walletExchanges)
    .set({ usedAt: use.now, holder: use.holder, expiresAt: new Date(use.now.getTime() + IMPORT_PROOF_KEPT_MS) })
    .where(spendable("import", use))
    .returning({ id: walletExchanges.id });
  return used.length === 1;
}

/** The person's own 'import' exchange, as the import page shows it (another person's id reads nothing). */
export async function findOwnImportExchange(db: Db, userId: string, id: string) {
  const [row] = await db
    .select({
      id: walletExchanges.id,
      challenge: walletExchanges.challenge,
      importNonce: walletExchanges.importNonce,
      expiresAt: walletExchanges.expiresAt,
      usedAt: walletExchanges.usedAt,
    })
    .from(walletExchanges)
    .where(and(eq(walletExchanges.id, id), eq(walletExchanges.userId, userId), eq(walletExchanges.purpose, "import")))
    .limit(1);
  return row ?? null;
}

/** The wallet DIDs that DIDAuths made for the person's pending import `importNonce` proved theirs. */
export async function provenImportHolders(db: Db, userId: string, importNonce: string) {
  const rows = await db
    .selectDistinct({ holder: walletExchanges.holder })
    .from(walletExchanges)
    .where(
      and(
        eq(walletExchanges.userId, userId),
        eq(walletExchanges.purpose, "import"),
        eq(walletExchanges.importNonce, importNonce),
        isNotNull(walletExchanges.usedAt),
      ),
    )
    .limit(10);
  return rows.flatMap((row) => (row.holder ? [row.holder] : []));
}
