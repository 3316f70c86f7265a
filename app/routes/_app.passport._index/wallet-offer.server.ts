import { z } from "zod";
import type { Db } from "#db/client.ts";
import { findOwnWalletExchange } from "#db/queries/wallet-exchanges.ts";
import { findOwnCredentialOffer } from "#db/queries/openid4vci.ts";
import type { WalletOfferView } from "#app/components/passport/wallet-offer.tsx";
import { walletDeepLink } from "#app/services/wallet-exchange.server.ts";
import { credentialOfferLink } from "#app/services/openid4vci.server.ts";
import { qrCodeOf } from "#app/utils/qr-code.server.ts";

/** The page's search param that shows an exchange's QR code and link (the dialog, or inline without JavaScript). */
export const WALLET_PARAM = "wallet";

/** The exchange `?wallet=` names, as the page shows it; null for none, or another person's. */
export async function loadWalletOffer(
  db: Db,
  viewerId: string,
  url: URL,
  origin: string,
  now = new Date(),
): Promise<WalletOfferView | null> {
  const id = url.searchParams.get(WALLET_PARAM);
  if (!id || !z.uuid().safeParse(id).success) return null;
  const [exchange, offer] = await Promise.all([
    findOwnWalletExchange(db, viewerId, id),
    findOwnCredentialOffer(db, viewerId, id),
  ]);
  if (!exchange) return null;
  const close = new URLSearchParams(url.searchParams);
  close.delete(WALLET_PARAM);
  const open = !exchange.usedAt && exchange.expiresAt > now;
  const link = open ? walletDeepLink(origin, exchange) : null;
  const offerOpen = offer && !offer.usedAt && offer.expiresAt > now;
  const offerLink = offerOpen ? credentialOfferLink(origin, offer.id) : null;
  return {
    achievementId: exchange.achievementId,
    title: exchange.title,
    state: exchange.usedAt ? "used" : open ? "open" : "expired",
    link,
    qr: link ? qrCodeOf(link) : null,
    openid4vci: offerLink && offer?.txCode ? { link: offerLink, qr: qrCodeOf(offerLink), txCode: offer.txCode } : null,
    closeHref: `/passport${close.size ? `?${close}` : ""}`,
  };
}
