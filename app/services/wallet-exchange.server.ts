import type { Db } from "#db/client.ts";
import { newInviteCode } from "#db/schema.ts";
import { exchangeToAnswerQuery, openWalletExchange, spendWalletExchange } from "#db/queries/wallet-exchanges.ts";
import { acceptExchangeQuery, achievementOfAcceptExchange } from "#db/queries/achievement-acceptances.ts";
import { NotFound } from "#app/utils/domain-errors.server.ts";
import { countAttempt, withinLimit } from "#app/utils/rate-limit.server.ts";
import { VC_V2_CONTEXT } from "./credentials/contexts.server.ts";
import { verifyWalletDidAuth } from "./credentials/did-auth.server.ts";
import type { Issuing } from "./credentials/issuer.server.ts";
import { reissueStored } from "./credentials/reissue.server.ts";
import { answerReads } from "./achievement-answers.server.ts";
import type { ServiceContext } from "./context.server.ts";
import { answerAcceptExchange } from "./wallet-acceptance.server.ts";

/**
 * 'Add to wallet' (issue 31, decision 064): a one-time exchange that hands a person's credential
 * to their Learner Credential Wallet, reissued to the wallet's DID. The person opens it on
 * /passport; the wallet, given its link, posts a DIDAuth presentation to it and gets the
 * credential back as VC-API exchanges answer.
 */

export const WALLET_EXCHANGE_MINUTES = 15;

/**
 * Opens an exchange for the credential of one of the person's own accepted achievements.
 * Another person's achievement, one without a credential, or a revoked one: NotFound.
 */
export async function startWalletExchange(db: Db, userId: string, achievementId: string, now = new Date()) {
  const id = await openWalletExchange(db, {
    id: crypto.randomUUID(),
    userId,
    achievementId,
    // 128 random bits, URL-safe, as invite codes are.
    challenge: newInviteCode(),
    createdAt: now,
    expiresAt: new Date(now.getTime() + WALLET_EXCHANGE_MINUTES * 60_000),
  });
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

/** The answer to a wallet: the presentation that carries its credential, or a refusal with its status. */
export type ExchangeAnswer =
  | { status: 200; body: Record<string, unknown> & { verifiablePresentation: Record<string, unknown> } }
  | { status: 400 | 401 | 404 | 410 | 429 | 500; body: { error: string } };

const refuse = (status: 400 | 401 | 404 | 410 | 429 | 500, error: string): ExchangeAnswer => ({
  status,
  body: { error },
});

/**
 * Answers a wallet's post to exchange `id`: checks its DIDAuth presentation against the
 * exchange's challenge, marks the exchange used (atomically: a replay or a second answer at once
 * finds it used) and hands back the credential reissued to the wallet's DID. Two D1 round trips:
 * the attempt counted with the reads, then the use. `network` is the caller's, for the rate limit.
 * An 'accept' exchange (decision 066) is read in the same batch, with what accepting its
 * achievement reads, and answered by its own service.
 */
export async function answerWalletExchange(
  context: ServiceContext,
  issuing: Issuing,
  {
    id,
    presentation,
    network,
    now = new Date(),
  }: {
    id: string;
    presentation: unknown;
    network: string;
    now?: Date;
  },
): Promise<ExchangeAnswer> {
  const [[attempt], [exchange], [toAccept], ...read] = await issuing.db.batch([
    countAttempt(issuing.db, "wallet-exchange", network, now.getTime()),
    exchangeToAnswerQuery(issuing.db, id),
    acceptExchangeQuery(issuing.db, id),
    ...answerReads(issuing.db, achievementOfAcceptExchange(id)),
  ]);
  if (!withinLimit("wallet-exchange", attempt)) return refuse(429, "Too many requests. Please wait a minute.");
  if (toAccept) return answerAcceptExchange(context, issuing, { id, exchange: toAccept, read, presentation, now });
  if (!exchange?.json) return refuse(404, "No such exchange.");
  if (exchange.usedAt) return refuse(410, "This exchange was already used. Ask for a new code on your passport.");
  if (exchange.expiresAt <= now) return refuse(410, "This exchange has expired. Ask for a new code on your passport.");
  if (exchange.revokedAt) return refuse(410, "This credential was revoked.");

  const outcome = await verifyWalletDidAuth({ env: context.env, issuing }, presentation, exchange.challenge);
  if ("refused" in outcome) return refuse(401, outcome.refused);

  const { credential, register } = await reissueStored(issuing, { ...exchange, json: exchange.json }, outcome.holder);
  const used = await spendWalletExchange(
    issuing.db,
    { id, challenge: exchange.challenge, holder: outcome.holder, now },
    register,
  );
  // Another answer took it first (or it was revoked meanwhile): what was signed goes nowhere.
  if (!used) return refuse(410, "This exchange was already used. Ask for a new code on your passport.");
  return credentialAnswer(credential);
}

/** A wallet's credential, answered as an exchange answers it. */
export function credentialAnswer(credential: Record<string, unknown>): ExchangeAnswer {
  const answer = { "@context": [VC_V2_CONTEXT], type: ["VerifiablePresentation"], verifiableCredential: [credential] };
  // VC-API exchanges answer `{verifiablePresentation}`; the wallet's deep-link request
  // (app/lib/credentialRequest.ts) reads the body itself as a VC or VP. Both find it (decision 064).
  return { status: 200, body: { ...answer, verifiablePresentation: answer } };
}
