import type { Db } from "#db/client.ts";
import { newInviteCode } from "#db/schema.ts";
import { acceptanceOfCredential, openAcceptExchange } from "#db/queries/achievement-acceptances.ts";
import { downloadHolderOf, forgetOwnHolder, ownHoldersPart } from "#db/queries/credential-holders.ts";
import { registerKeyVersion } from "#db/queries/credentials/issuance.ts";
import { NotFound } from "#app/utils/domain-errors.server.ts";
import { recordAnswer, type AnswerRead } from "./achievement-answers.server.ts";
import type { ServiceContext } from "./context.server.ts";
import type { JsonObject } from "./credentials/data-integrity.server.ts";
import { verifyWalletDidAuth } from "./credentials/did-auth.server.ts";
import type { Issuing } from "./credentials/issuer.server.ts";
import { reissueStored } from "./credentials/reissue.server.ts";
import { credentialAnswer, WALLET_EXCHANGE_MINUTES, type ExchangeAnswer } from "./wallet-exchange.server.ts";

/**
 * 'Accept with my wallet' (issue 31, decision 066): a pending achievement accepted by the
 * holder's signature. The same Learner Credential Wallet exchange as 'Add to wallet' (decision
 * 064), its challenge bound to the achievement; the wallet's DIDAuth answer accepts it through
 * the accept button's own service, stores the signed presentation as the proof of acceptance and
 * hands back the credential issued to the wallet's DID.
 */

/** Opens an 'accept' exchange for one of the person's own pending achievements; anything else: NotFound. */
export async function startAcceptExchange(db: Db, userId: string, achievementId: string, now = new Date()) {
  const id = await openAcceptExchange(db, {
    id: crypto.randomUUID(),
    userId,
    achievementId,
    challenge: newInviteCode(),
    createdAt: now,
    expiresAt: new Date(now.getTime() + WALLET_EXCHANGE_MINUTES * 60_000),
  });
  if (!id) throw new NotFound("Achievement not found");
  return id;
}

export type AcceptExchange = {
  userId: string;
  achievementId: string;
  challenge: string;
  expiresAt: Date;
  usedAt: Date | null;
  status: string;
};

const refuse = (status: 401 | 410 | 500, error: string): ExchangeAnswer => ({ status, body: { error } });

/**
 * Answers a wallet's DIDAuth to an 'accept' exchange, read (with its achievement's `answerReads`)
 * in the batch that counted the attempt: verified against the exchange's challenge, then one
 * batch spends the exchange (one answer wins), accepts the achievement through the accept
 * button's own service with the presentation as its proof, and issues the credential, which the
 * wallet gets issued to the holder's DID. Two D1 round trips in all.
 */
export async function answerAcceptExchange(
  context: ServiceContext,
  issuing: Issuing,
  {
    id,
    exchange,
    read,
    presentation,
    now,
  }: { id: string; exchange: AcceptExchange; read: AnswerRead; presentation: unknown; now: Date },
): Promise<ExchangeAnswer> {
  if (exchange.usedAt) return refuse(410, "This exchange was already used. Ask for a new code on your passport.");
  if (exchange.expiresAt <= now) return refuse(410, "This exchange has expired. Ask for a new code on your passport.");
  if (exchange.status !== "pending") return refuse(410, "This achievement was already answered.");

  const outcome = await verifyWalletDidAuth({ env: context.env, issuing }, presentation, exchange.challenge);
  if ("refused" in outcome) return refuse(401, outcome.refused);

  const { recorded, forHolder } = await recordAnswer(context, exchange.userId, exchange.achievementId, "accepted", {
    read,
    signedBy: {
      holder: outcome.holder,
      exchangeId: id,
      challenge: exchange.challenge,
      presentation: JSON.stringify(presentation),
      signedAt: now,
    },
  });
  // Another answer (the wallet's again, or the button) came first: nothing of this was recorded.
  if (!recorded) return refuse(410, "This exchange was already used, or its achievement answered.");
  // Accepted; only the signing of its credential failed (logged), as with the button.
  if (!forHolder) return refuse(500, "Accepted, but the credential could not be issued. It will be on your passport.");
  return credentialAnswer(forHolder);
}

/** The proof of acceptance of a credential, as anyone may read it; null when it was accepted without one. */
export async function acceptanceProof(db: Db, credentialId: string) {
  const row = await acceptanceOfCredential(db, credentialId);
  return (
    row && { holder: row.holder, signedAt: row.signedAt, presentation: JSON.parse(row.presentation) as JsonObject }
  );
}

/**
 * The credential as its download serves it: bound to its newest remembered holder DID, else as
 * stored (the e-mail-hash subject). `servable` is the stored credential as it may be served.
 */
export async function boundToHolder(
  issuing: Issuing,
  credential: { id: string; organizationId: string },
  servable: JsonObject,
) {
  const bound = await downloadHolderOf(issuing.db, credential.id);
  if (!bound) return servable;
  const { credential: reissued, register } = await reissueStored(
    issuing,
    { ...bound, organizationId: credential.organizationId, json: JSON.stringify(servable) },
    bound.holder,
  );
  if (register) await registerKeyVersion(issuing.db, register);
  return reissued;
}

/** How many credential–DID pairs Settings lists, newest first (and says how many more there are). */
export const HOLDER_KEYS_SHOWN = 50;

/** The person's holder DIDs, each with its credentials, newest first; capped. A part of the page's batch. */
export function ownHolderKeysPart(db: Db, userId: string, cap: number) {
  const part = ownHoldersPart(db, userId, cap);
  return {
    statements: part.statements,
    read: (results: readonly unknown[]) => {
      const { rows, total } = part.read(results);
      type Credential = {
        credentialId: string;
        title: string | null;
        organizationName: string | null;
        issuedAt: string;
      };
      const byHolder = new Map<string, { did: string; lastIssuedAt: string; credentials: Credential[] }>();
      for (const { holder, issuedAt, ...credential } of rows) {
        const entry = byHolder.get(holder) ?? { did: holder, lastIssuedAt: issuedAt.toISOString(), credentials: [] };
        entry.credentials.push({ ...credential, issuedAt: issuedAt.toISOString() });
        byHolder.set(holder, entry);
      }
      return { keys: [...byHolder.values()], shown: rows.length, total };
    },
  };
}

/** Forgets one of the person's own holder DIDs: their downloads go back to the e-mail-hash subject. */
export async function forgetHolderKey(db: Db, userId: string, did: string) {
  if ((await forgetOwnHolder(db, userId, did)) === 0) throw new NotFound("Wallet key not found");
}
