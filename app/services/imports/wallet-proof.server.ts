import type { ServiceContext } from "#app/services/context.server.ts";
import { newExchange, walletDeepLink } from "#app/services/wallet-exchange.server.ts";
import { NotFound, Refusal } from "#app/utils/domain-errors.server.ts";
import { qrCodeOf } from "#app/utils/qr-code.server.ts";
import { findOwnImportExchange, openImportExchange, provenImportHolders } from "#db/queries/wallet-exchanges.ts";
import { previewIdentity } from "./issuer-standing.server.ts";
import { NOT_CURRENT, readPendingImport, refuseUnlessPending, verifyFor } from "./imported-credentials.server.ts";

// 'Prove with my wallet' on the import page (issue 43, decision 099): a credential issued to a
// wallet DID is the person's only once their wallet signs a DIDAuth over a challenge made for this
// import, through the same one-time exchange as 'Add to wallet'. Any other proof (a DID that
// received one of our credentials, say) could have been given by someone else's wallet.

type Person = { id: string; email: string };

/** Opens a proof for the person's pending import (checked under `nonce`): the exchange's id. */
export async function startImportProof(context: ServiceContext, person: Person, nonce: string, now = new Date()) {
  // Still the pending import: a proof for a replaced check would prove nothing anyone sees.
  await refuseUnlessPending(context, person.id, nonce);
  const exchange = newExchange(now);
  await openImportExchange(context.db, { ...exchange, userId: person.id, importNonce: nonce });
  return exchange.id;
}

/**
 * The import page at `?prove=`: while the wallet has not answered, the exchange's QR code and
 * link (or that it expired); once it has, the pending import checked again with the DID it proved.
 * Another person's exchange, or one of another purpose: NotFound.
 */
export async function importProofPage(
  context: ServiceContext,
  person: Person,
  exchangeId: string,
  { origin, now = new Date() }: { origin: string; now?: Date },
) {
  const exchange = await findOwnImportExchange(context.db, person.id, exchangeId);
  if (!exchange?.importNonce) throw new NotFound();
  const nonce = exchange.importNonce;
  if (!exchange.usedAt) {
    const open = exchange.expiresAt > now;
    const link = open ? walletDeepLink(origin, exchange) : null;
    return {
      proof: { state: open ? ("open" as const) : ("expired" as const), nonce, link, qr: link ? qrCodeOf(link) : null },
    };
  }
  const pending = await readPendingImport(context, person.id, nonce).catch((error: unknown) => {
    if (error instanceof Refusal) return null;
    throw error;
  });
  // Another check replaced the import this wallet proved: nothing to show but that.
  if (!pending) return { stale: NOT_CURRENT };
  const { source } = pending;
  const holderDids = await provenImportHolders(context.db, person.id, nonce);
  const outcome = await verifyFor(context, person, source, { now, holderDids });
  const issuerIdentity = outcome.status === "refused" ? null : await previewIdentity(context.db, outcome.issuer, now);
  return { checked: outcome, nonce, issuerIdentity };
}
