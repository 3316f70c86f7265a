import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { insertWhen, type Db } from "../client.ts";
import { newestKeyOfCredential, reissueColumns } from "./credentials/stored.ts";
import { credentials, openid4vciGrants as grants, organizationKeys, walletExchanges } from "../schema.ts";

// OpenID4VCI's short-lived rows (decision 065): offers with their pre-authorised code, access
// tokens (by their hash), c_nonces. Each is spent at most once, by a conditional UPDATE.

/** Wrong transaction codes an offer takes: the last one spends it. */
export const TX_CODE_ATTEMPTS = 5;

/**
 * Opens an offer beside the person's own open exchange `exchangeId` (made by the same 'Add to
 * wallet'), for the exchange's credential: the owner and credential come from that row. The new
 * row's id, or null.
 */
export async function openCredentialOffer(
  db: Db,
  offer: {
    id: string;
    userId: string;
    exchangeId: string;
    code: string;
    txCode: string;
    createdAt: Date;
    expiresAt: Date;
  },
) {
  const exchange = sql`from ${walletExchanges} where ${walletExchanges.id} = ${offer.exchangeId}
    and ${walletExchanges.userId} = ${offer.userId} and ${walletExchanges.credentialId} is not null`;
  const [row] = await insertWhen(
    db,
    grants,
    { ...offer, kind: "offer", credentialId: sql`(select ${walletExchanges.credentialId} ${exchange})` },
    sql`exists (select 1 ${exchange})`,
  ).returning({ id: grants.id });
  return row?.id ?? null;
}

/** The offer made with the person's own exchange, as /passport shows it. */
export async function findOwnCredentialOffer(db: Db, userId: string, exchangeId: string) {
  const [row] = await db
    .select({ id: grants.id, txCode: grants.txCode, expiresAt: grants.expiresAt, usedAt: grants.usedAt })
    .from(grants)
    .where(and(eq(grants.exchangeId, exchangeId), eq(grants.userId, userId), eq(grants.kind, "offer")))
    .limit(1);
  return row ?? null;
}

/** The offer behind a `credential_offer_uri`: one statement, for a batch with the attempt counted. */
export function offerQuery(db: Db, id: string) {
  return db
    .select({ code: grants.code, expiresAt: grants.expiresAt, usedAt: grants.usedAt })
    .from(grants)
    .where(and(eq(grants.id, id), eq(grants.kind, "offer")))
    .limit(1);
}

/**
 * The token request: spends the offer of `code` if `txCode` is its transaction code (a wrong one
 * is counted; the last allowed one spends it), and in the same batch stores the access token
 * (`tokenHash`) for the offer's credential, only if this request spent it. One D1 round trip.
 * "issued": a token; "wrong-tx-code"; "invalid": no such code, used, expired or spent.
 */
export async function redeemPreAuthorizedCode(
  db: Db,
  {
    code,
    txCode,
    tokenHash,
    now,
    tokenExpiresAt,
  }: { code: string; txCode: string | null; tokenHash: string; now: Date; tokenExpiresAt: Date },
) {
  const matches = sql`${grants.txCode} is not null and ${grants.txCode} = ${txCode}`;
  const spend = db
    .update(grants)
    .set({
      usedAt: sql`case when ${matches} or ${grants.txAttempts} >= ${TX_CODE_ATTEMPTS - 1} then ${now.getTime()} end`,
      txAttempts: sql`${grants.txAttempts} + case when ${matches} then 0 else 1 end`,
    })
    .where(
      and(
        eq(grants.kind, "offer"),
        eq(grants.code, code),
        isNull(grants.usedAt),
        gt(grants.expiresAt, now),
        sql`${grants.txAttempts} < ${TX_CODE_ATTEMPTS}`,
      ),
    )
    .returning({ id: grants.id });
  const spentNow = sql`from ${grants} where ${grants.kind} = 'offer' and ${grants.code} = ${code}
    and ${grants.usedAt} = ${now.getTime()} and ${matches}`;
  const issue = insertWhen(
    db,
    grants,
    {
      id: tokenHash,
      kind: "token",
      credentialId: sql`(select ${grants.credentialId} ${spentNow})`,
      createdAt: now,
      expiresAt: tokenExpiresAt,
    },
    sql`exists (select 1 ${spentNow})`,
  ).returning({ id: grants.id });
  const [offered, issued] = await db.batch([spend, issue]);
  if (issued.length === 1) return "issued" as const;
  return offered.length === 1 ? ("wrong-tx-code" as const) : ("invalid" as const);
}

/** Stores a fresh c_nonce. */
export function storeNonce(db: Db, nonce: string, now: Date, expiresAt: Date) {
  return db.insert(grants).values({ id: nonce, kind: "nonce", createdAt: now, expiresAt });
}

/**
 * The access token `tokenHash` with its credential and the organisation's newest signing key, and
 * whether `nonce` is ours and open: two statements for the batch that counts the attempt.
 */
export function credentialRequestQueries(db: Db, tokenHash: string, nonce: string) {
  const token = db
    .select({
      expiresAt: grants.expiresAt,
      usedAt: grants.usedAt,
      ...reissueColumns,
    })
    .from(grants)
    .innerJoin(credentials, eq(credentials.id, grants.credentialId))
    .leftJoin(organizationKeys, newestKeyOfCredential)
    .where(and(eq(grants.id, tokenHash), eq(grants.kind, "token")))
    .limit(1);
  const nonceRow = db
    .select({ expiresAt: grants.expiresAt, usedAt: grants.usedAt })
    .from(grants)
    .where(and(eq(grants.id, nonce), eq(grants.kind, "nonce")))
    .limit(1);
  return [token, nonceRow] as const;
}

/**
 * Spends the access token and the nonce together, only if both are still open and the credential
 * unrevoked: of two requests at once, exactly one gets true. `alsoWrite` (a new key version's
 * registration) rides in the same batch: one D1 round trip.
 */
export async function spendTokenAndNonce(
  db: Db,
  { tokenHash, nonce, holder, now }: { tokenHash: string; nonce: string; holder: string; now: Date },
  alsoWrite: { organizationId: string; version: number; publicKeyMultibase: string } | null,
) {
  const at = now.getTime();
  const nonceOpen = sql`exists (select 1 from ${grants} as n where n.id = ${nonce} and n.kind = 'nonce'
    and n.used_at is null and n.expires_at > ${at})`;
  const unrevoked = sql`not exists (select 1 from ${credentials}
    where ${credentials.id} = ${grants.credentialId} and ${credentials.revokedAt} is not null)`;
  const spendToken = db
    .update(grants)
    .set({ usedAt: now, holder })
    .where(
      and(
        eq(grants.id, tokenHash),
        eq(grants.kind, "token"),
        isNull(grants.usedAt),
        gt(grants.expiresAt, now),
        unrevoked,
        nonceOpen,
      ),
    )
    .returning({ id: grants.id });
  const spendNonce = db
    .update(grants)
    .set({ usedAt: now })
    .where(
      and(
        eq(grants.id, nonce),
        eq(grants.kind, "nonce"),
        isNull(grants.usedAt),
        sql`exists (select 1 from ${grants} as t where t.id = ${tokenHash} and t.kind = 'token' and t.used_at = ${at})`,
      ),
    );
  const register = alsoWrite ? [db.insert(organizationKeys).values(alsoWrite).onConflictDoNothing()] : [];
  const [spent] = await db.batch([spendToken, spendNonce, ...register]);
  return spent.length === 1;
}
