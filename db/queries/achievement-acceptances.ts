import { and, eq, sql, type SQL } from "drizzle-orm";
import { insertWhen, type Db } from "../client.ts";
import { achievementAcceptances, achievements, credentials, walletExchanges } from "../schema.ts";
import { spendable, type ExchangeUse } from "./wallet-exchanges.ts";

// 'Accept with my wallet' (decision 066): the exchange that accepts a pending achievement by a
// signature, and the signed presentation kept as the proof of acceptance.

/**
 * Opens an 'accept' exchange for one of the person's own pending achievements from an
 * organisation (only those get a credential): checked by the INSERT's own WHERE. The id, or null.
 */
export async function openAcceptExchange(
  db: Db,
  exchange: { id: string; userId: string; achievementId: string; challenge: string; createdAt: Date; expiresAt: Date },
) {
  const [row] = await insertWhen(
    db,
    walletExchanges,
    { ...exchange, purpose: "accept", credentialId: null },
    sql`exists (select 1 from ${achievements} where ${achievements.id} = ${exchange.achievementId}
      and ${achievements.userId} = ${exchange.userId} and ${achievements.status} = 'pending'
      and ${achievements.organizationId} is not null)`,
  ).returning({ id: walletExchanges.id });
  return row?.id ?? null;
}

/** An 'accept' exchange as its answer needs it (for the batch that counts the attempt). */
export function acceptExchangeQuery(db: Db, id: string) {
  return db
    .select({
      userId: walletExchanges.userId,
      // The joined row's: the same id, never null.
      achievementId: achievements.id,
      challenge: walletExchanges.challenge,
      expiresAt: walletExchanges.expiresAt,
      usedAt: walletExchanges.usedAt,
      status: achievements.status,
    })
    .from(walletExchanges)
    .innerJoin(achievements, eq(achievements.id, walletExchanges.achievementId))
    .where(and(eq(walletExchanges.id, id), eq(walletExchanges.purpose, "accept")))
    .limit(1);
}

/** The achievement an 'accept' exchange is for, as SQL: its answer's reads join the exchange's read. */
export const achievementOfAcceptExchange = (id: string) =>
  sql`(select ${walletExchanges.achievementId} from ${walletExchanges}
    where ${walletExchanges.id} = ${id} and ${walletExchanges.purpose} = 'accept')`;

/**
 * Spends an 'accept' exchange for `holder`, as the first statement of the batch that records the
 * acceptance: only one answer gets it, within its time, while the achievement is pending.
 */
export function spendAcceptExchangeStatement(db: Db, use: ExchangeUse) {
  const pending = sql`exists (select 1 from ${achievements} where ${achievements.id} = ${walletExchanges.achievementId}
    and ${achievements.status} = 'pending')`;
  return db
    .update(walletExchanges)
    .set({ usedAt: use.now, holder: use.holder })
    .where(and(spendable("accept", use), pending));
}

/** Holds once `spendAcceptExchangeStatement` spent the exchange for this answer (the `when` of what follows it). */
export const spentBy = ({ id, holder, now }: ExchangeUse) =>
  sql`exists (select 1 from ${walletExchanges} where ${walletExchanges.id} = ${id}
    and ${walletExchanges.holder} = ${holder} and ${walletExchanges.usedAt} = ${now.getTime()})`;

export type AcceptanceProof = {
  achievementId: string;
  userId: string;
  holder: string;
  exchangeId: string;
  challenge: string;
  presentation: string;
  signedAt: Date;
};

/** The proof's row, written in the acceptance's own batch only while `when` (the achievement still pending) holds. */
export const acceptanceInsert = (db: Db, proof: AcceptanceProof, when: SQL) =>
  insertWhen(db, achievementAcceptances, proof, when);

/** The proof of acceptance of a credential's achievement, as /credentials/{id} shows and serves it. */
export async function acceptanceOfCredential(db: Db, credentialId: string) {
  const [row] = await db
    .select({
      holder: achievementAcceptances.holder,
      presentation: achievementAcceptances.presentation,
      signedAt: achievementAcceptances.signedAt,
    })
    .from(credentials)
    .innerJoin(achievementAcceptances, eq(achievementAcceptances.achievementId, credentials.achievementId))
    .where(eq(credentials.id, credentialId))
    .limit(1);
  return row ?? null;
}

/**
 * The person's own 'accept' exchange as /passport shows it, with its achievement's status;
 * another person's reads nothing.
 */
export async function findOwnAcceptExchange(db: Db, userId: string, id: string) {
  const [row] = await db
    .select({
      id: walletExchanges.id,
      achievementId: achievements.id,
      title: achievements.title,
      status: achievements.status,
      challenge: walletExchanges.challenge,
      expiresAt: walletExchanges.expiresAt,
      usedAt: walletExchanges.usedAt,
      holder: walletExchanges.holder,
    })
    .from(walletExchanges)
    .innerJoin(achievements, eq(achievements.id, walletExchanges.achievementId))
    .where(and(eq(walletExchanges.id, id), eq(walletExchanges.userId, userId), eq(walletExchanges.purpose, "accept")))
    .limit(1);
  return row ?? null;
}
