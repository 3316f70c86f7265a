import { z } from "zod";
import { forgetHolderKey } from "#app/services/wallet-acceptance.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const schema = z.object({ intent: z.literal("forget-holder-key"), did: z.string().startsWith("did:").max(400) });

/**
 * 'Forget this key' (decision 066): the person's own wallet DID is no longer where their
 * credentials are downloaded to. Another person's DID, or one forgotten already: 404.
 */
export const forgetHolderKeyIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: "Error forgetting wallet key",
  run: async ({ did }, { context, viewer }) => {
    await forgetHolderKey(context, viewer.id, did);
    return {
      toast: {
        title: "Wallet key forgotten",
        description: "Your credentials download in your e-mail address's name again.",
      },
      redirectTo: "/settings/data#wallet-keys",
    };
  },
});
