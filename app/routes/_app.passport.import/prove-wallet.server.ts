import { redirect } from "@remix-run/cloudflare";
import { z } from "zod";
import { IMPORT_REFUSED } from "#app/services/imports/imported-credentials.server.ts";
import { startImportProof } from "#app/services/imports/wallet-proof.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const schema = z.object({ intent: z.literal("prove-wallet"), nonce: z.uuid() });

/**
 * 'Prove with my wallet' (decision 099): a one-time exchange for the person's pending import, whose
 * QR code and link the page then shows (`?prove=`). A check replaced since: refused, as 'Add' is.
 */
export const proveWalletIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: IMPORT_REFUSED,
  run: async ({ nonce }, { context, viewer }) =>
    redirect(`/passport/import?prove=${await startImportProof(context, viewer, nonce)}`),
});
