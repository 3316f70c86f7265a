import { newInviteCode } from "#db/schema.ts";
import {
  exchangeToAnswerQuery,
  importExchangeQuery,
  openWalletExchange,
  spendImportExchange,
  spendWalletExchange,
} from "#db/queries/wallet-exchanges.ts";
import { acceptExchangeQuery, achievementOfAcceptExchange } from "#db/queries/achievement-acceptances.ts";
import { ExchangeRefusal, NotFound } from "#app/utils/domain-errors.server.ts";
import { countAttempt, withinLimit } from "#app/utils/rate-limit.server.ts";
import type { JsonObject } from "./credentials/data-integrity.server.ts";
import { verifyWalletDidAuth } from "./credentials/did-auth.server.ts";
import type { Issuing } from "./credentials/issuer.server.ts";
import { reissueStored } from "./credentials/reissue.server.ts";
import { answerReads, recordAnswer, type AnswerRead } from "./achievement-answers.server.ts";
import type { ServiceContext } from "./context.server.ts";

/**
 * The wallet exchange (issue 31): a one-time exchange a person opens on /passport, which their
 * Learner Credential Wallet, given its link, answers with a DIDAuth presentation. Three purposes
 * share it: 'Add to wallet' (decision 064) hands over a credential reissued to the wallet's DID;
 * 'Accept with my wallet' (decision 066) accepts a pending achievement with the signed
 * presentation as its proof, then hands over its new credential the same way; 'Prove with my
 * wallet' on the import page (decision 099) proves the wallet DID a pending import was issued to.
 * Refusals are thrown as `ExchangeRefusal`s; the route answers them as VC-API exchanges do.
 */

export const WALLET_EXCHANGE_MINUTES = 15;

/** A new exchange's challenge (128 random bits, URL-safe, as invite codes are) and lifetime. */
export function newExchange(now: Date) {
  return {
    id: crypto.randomUUID(),
    challenge: newInviteCode(),
    createdAt: now,
    expiresAt: new Date(now.getTime() + WALLET_EXCHANGE_MINUTES * 60_000),
  };
}

/**
 * Opens an exchange for the credential of one of the person's own accepted achievements.
 * Another person's achievement, one without a credential, or a revoked one: NotFound.
 */
export async function startWalletExchange(
  context: ServiceContext,
  userId: string,
  achievementId: string,
  now = new Date(),
) {
  const id = await openWalletExchange(context.db, { ...newExchange(now), userId, achievementId });
  if (!id) throw new NotFound();
  return id;
}

/** Where the wallet posts its presentation: the exchange's `vc_request_url`. */
export const walletExchangeUrl = (origin: string, id: string) => `${origin}/credentials/exchanges/${id}`;

/**
 * The link the Learner Credential Wallet opens (digitalcredentials/docs, request/credential_request.md;
 * the wallet's app/lib/deepLink.ts): `issuer` names us, `auth_type=bearer` says the presentation
 * itself authenticates, over `challenge`, posted to `vc_request_url`.
 */
export function walletDeepLink(origin: string, exchange: { id: string; challenge: string }) {
  const query = new URLSearchParams({
    issuer: new URL(origin).host,
    auth_type: "bearer",
    challenge: exchange.challenge,
    vc_request_url: walletExchangeUrl(origin, exchange.id),
  });
  return `https://lcw.app/request.html?${query}`;
}

const USED = "This exchange was already used. Ask for a new code on your passport.";
const EXPIRED = "This exchange has expired. Ask for a new code on your passport.";

/**
 * Answers a wallet's post to exchange `id`: checks its DIDAuth presentation against the
 * exchange's challenge, marks the exchange used (atomically: a replay or a second answer at once
 * finds it used) and returns the credential reissued to the wallet's DID. Two D1 round trips:
 * the attempt counted with the reads, then the use. `network` is the caller's, for the rate limit.
 * An 'accept' exchange (decision 066) is read in the same batch, with what accepting its
 * achievement reads, and answered by `answerAcceptExchange`.
 */
export async function answerWalletExchange(
  context: ServiceContext,
  signer: Issuing,
  { id, presentation, network, now = new Date() }: { id: string; presentation: unknown; network: string; now?: Date },
): Promise<JsonObject | PROVED> {
  const { db } = context;
  const [[attempt], [exchange], [toAccept], [toProve], ...read] = await db.batch([
    countAttempt(db, "wallet-exchange", network, now.getTime()),
    exchangeToAnswerQuery(db, id),
    acceptExchangeQuery(db, id),
    importExchangeQuery(db, id),
    ...answerReads(db, achievementOfAcceptExchange(id)),
  ]);
  if (!withinLimit("wallet-exchange", attempt))
    throw new ExchangeRefusal("throttled", "Too many requests. Please wait a minute.");
  if (toAccept) return answerAcceptExchange(context, signer, { id, exchange: toAccept, read, presentation, now });
  if (toProve) return answerImportExchange(context, signer, { id, exchange: toProve, presentation, now });
  if (!exchange?.json) throw new ExchangeRefusal("unknown", "No such exchange.");
  if (exchange.usedAt) throw new ExchangeRefusal("gone", USED);
  if (exchange.expiresAt <= now) throw new ExchangeRefusal("gone", EXPIRED);
  if (exchange.revokedAt) throw new ExchangeRefusal("gone", "This credential was revoked.");

  const holder = await authenticatedHolder(context, signer, presentation, exchange.challenge);
  const { credential, register } = await reissueStored(signer, { ...exchange, json: exchange.json }, holder);
  const used = await spendWalletExchange(
    db,
    { id, challenge: exchange.challenge, holder, now, credentialJson: JSON.stringify(credential) },
    register,
  );
  // Another answer took it first (or it was revoked meanwhile): what was signed goes nowhere.
  if (!used) throw new ExchangeRefusal("gone", USED);
  return credential;
}

/** What an 'import' exchange answers: the wallet is proved, and nothing is handed over. */
export const PROVED = "proved";
type PROVED = typeof PROVED;

/**
 * Answers a wallet's DIDAuth to an 'import' exchange (decision 099): the DID it authenticates is
 * recorded on the exchange, which the import page then matches against its pending credential.
 */
async function answerImportExchange(
  context: ServiceContext,
  signer: Issuing,
  {
    id,
    exchange,
    presentation,
    now,
  }: {
    id: string;
    exchange: { challenge: string; expiresAt: Date; usedAt: Date | null };
    presentation: unknown;
    now: Date;
  },
): Promise<PROVED> {
  if (exchange.usedAt) throw new ExchangeRefusal("gone", USED_FOR_IMPORT);
  if (exchange.expiresAt <= now) throw new ExchangeRefusal("gone", EXPIRED_FOR_IMPORT);
  const holder = await authenticatedHolder(context, signer, presentation, exchange.challenge);
  if (!(await spendImportExchange(context.db, { id, challenge: exchange.challenge, holder, now })))
    throw new ExchangeRefusal("gone", USED_FOR_IMPORT);
  return PROVED;
}
const USED_FOR_IMPORT = "This exchange was already used. Ask for a new code on the import page.";
const EXPIRED_FOR_IMPORT = "This exchange has expired. Ask for a new code on the import page.";

/** The DID of the wallet whose presentation authenticates over `challenge`; otherwise refused. */
async function authenticatedHolder(context: ServiceContext, signer: Issuing, presentation: unknown, challenge: string) {
  const outcome = await verifyWalletDidAuth({ env: context.env, issuing: signer }, presentation, challenge);
  if ("refused" in outcome) throw new ExchangeRefusal("unauthenticated", outcome.refused);
  return outcome.holder;
}

/** An 'accept' exchange as its answer reads it (db/queries/achievement-acceptances.ts). */
type AcceptExchange = {
  userId: string;
  achievementId: string;
  challenge: string;
  expiresAt: Date;
  usedAt: Date | null;
  status: string;
};

/**
 * Answers a wallet's DIDAuth to an 'accept' exchange, read (with its achievement's `answerReads`)
 * in the batch that counted the attempt: verified against the exchange's challenge, then one
 * batch spends the exchange (one answer wins), accepts the achievement through the accept
 * button's own service with the presentation as its proof, and issues the credential, which the
 * wallet gets issued to the holder's DID. Two D1 round trips in all.
 */
async function answerAcceptExchange(
  context: ServiceContext,
  signer: Issuing,
  {
    id,
    exchange,
    read,
    presentation,
    now,
  }: { id: string; exchange: AcceptExchange; read: AnswerRead; presentation: unknown; now: Date },
): Promise<JsonObject> {
  if (exchange.usedAt) throw new ExchangeRefusal("gone", USED);
  if (exchange.expiresAt <= now) throw new ExchangeRefusal("gone", EXPIRED);
  if (exchange.status !== "pending") throw new ExchangeRefusal("gone", "This achievement was already answered.");

  const holder = await authenticatedHolder(context, signer, presentation, exchange.challenge);
  const { recorded, forHolder } = await recordAnswer(context, exchange.userId, exchange.achievementId, "accepted", {
    read,
    signedBy: {
      holder,
      exchangeId: id,
      challenge: exchange.challenge,
      presentation: JSON.stringify(presentation),
      signedAt: now,
    },
  });
  // Another answer (the wallet's again, or the button) came first: nothing of this was recorded.
  if (!recorded) throw new ExchangeRefusal("gone", "This exchange was already used, or its achievement answered.");
  // Accepted; only the signing of its credential failed (logged), as with the button.
  if (!forHolder)
    throw new ExchangeRefusal(
      "unissued",
      "Accepted, but the credential could not be issued. It will be on your passport.",
    );
  return forHolder;
}
