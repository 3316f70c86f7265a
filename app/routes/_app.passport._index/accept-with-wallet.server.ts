import { redirect } from "@remix-run/cloudflare";
import { z } from "zod";
import { startAcceptExchange } from "#app/services/wallet-acceptance.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";
import { ACCEPT_WALLET_PARAM } from "./wallet-acceptance.server.ts";

const schema = z.object({ intent: z.literal("accept-with-wallet"), achievementId: z.uuid() });

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
