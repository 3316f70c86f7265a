import { redirect } from "@remix-run/cloudflare";
import { z } from "zod";
import { startWalletExchange } from "#app/services/wallet-exchange.server.ts";
import { startCredentialOffer } from "#app/services/openid4vci.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";
import { WALLET_PARAM } from "./wallet-offer.server.ts";

const schema = z.object({ intent: z.literal("add-to-wallet"), achievementId: z.uuid() });

/**
 * 'Add to wallet' and 'Get a new code' (decision 064): opens a one-time exchange for the
 * credential of one of the person's own achievements, then shows it on this page, where the list
 * was. Another person's achievement, or one with no credential, is not there (404).
 */
export const addToWalletIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: "Error adding to wallet",
  run: async ({ achievementId }, { context, viewer, request }) => {
    const id = await startWalletExchange(context, viewer.id, achievementId);
    // And the OpenID4VCI offer for other wallets, shown beside it (decision 065).
    await startCredentialOffer(context, viewer.id, id);
    const search = new URL(request.url).searchParams;
    search.delete("index");
    search.set(WALLET_PARAM, id);
    return redirect(`/passport?${search}`);
  },
});
