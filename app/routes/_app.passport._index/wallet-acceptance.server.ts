import { z } from "zod";
import type { Db } from "#db/client.ts";
import { findOwnAcceptExchange } from "#db/queries/achievement-acceptances.ts";
import type { WalletAcceptanceView } from "#app/components/passport/wallet-acceptance.tsx";
import { walletDeepLink } from "#app/services/wallet-exchange.server.ts";
import { qrCodeOf } from "#app/utils/qr-code.server.ts";

/** The page's search param that shows an 'accept' exchange (the dialog, or a panel without JavaScript). */
export const ACCEPT_WALLET_PARAM = "accept-wallet";

/** The 'accept' exchange `?accept-wallet=` names, as the page shows it; null for none, or another person's. */
export async function loadWalletAcceptance(
  db: Db,
  viewerId: string,
  url: URL,
  origin: string,
  now = new Date(),
): Promise<WalletAcceptanceView | null> {
  const id = url.searchParams.get(ACCEPT_WALLET_PARAM);
  if (!id || !z.uuid().safeParse(id).success) return null;
  const exchange = await findOwnAcceptExchange(db, viewerId, id);
  if (!exchange) return null;
  const close = new URLSearchParams(url.searchParams);
  close.delete(ACCEPT_WALLET_PARAM);
  const state =
    exchange.usedAt && exchange.status === "accepted"
      ? "accepted"
      : exchange.status !== "pending"
        ? "answered"
        : exchange.usedAt
          ? "used"
          : exchange.expiresAt > now
            ? "open"
            : "expired";
  const link = state === "open" ? walletDeepLink(origin, exchange) : null;
  return {
    achievementId: exchange.achievementId,
    title: exchange.title,
    state,
    holder: state === "accepted" ? exchange.holder : null,
    link,
    qr: link ? qrCodeOf(link) : null,
    href: `/passport?${url.searchParams}`,
    closeHref: `/passport${close.size ? `?${close}` : ""}`,
  };
}
