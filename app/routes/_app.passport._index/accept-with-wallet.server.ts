import { redirect } from "@remix-run/cloudflare";
import { z } from "zod";
import type { Db } from "#db/client.ts";
import { findOwnAcceptExchange } from "#db/queries/achievement-acceptances.ts";
import type { WalletAcceptanceView } from "#app/components/passport/wallet-acceptance.tsx";
import { startAcceptExchange } from "#app/services/wallet-acceptance.server.ts";
import { walletDeepLink } from "#app/services/wallet-exchange.server.ts";
import { qrCodeOf } from "#app/utils/qr-code.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const schema = z.object({ intent: z.literal("accept-with-wallet"), achievementId: z.uuid() });

/** The page's search param that shows an 'accept' exchange (the dialog, or a panel without JavaScript). */
export const ACCEPT_WALLET_PARAM = "accept-wallet";

/**
 * 'Accept with my wallet' (decision 066): opens a one-time exchange whose challenge is bound to one
 * of the person's own pending achievements, then shows its QR code and link on this page. Another
 * person's achievement, an answered one or a self achievement: 404.
 */
export const acceptWithWalletIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: "Error accepting with your wallet",
  run: async ({ achievementId }, { context, viewer, request }) => {
    const id = await startAcceptExchange(context, viewer.id, achievementId);
    const search = new URL(request.url).searchParams;
    search.delete("index");
    search.set(ACCEPT_WALLET_PARAM, id);
    return redirect(`/passport?${search}`);
  },
});

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
