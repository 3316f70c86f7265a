import { z } from "zod";
import { startTwoFactor } from "#app/services/accounts/two-factor.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import { signedInAccount } from "#app/utils/signed-in-account.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const schema = z.object({ intent: z.literal("enable-two-factor"), password: z.string().default("") });
const TITLE = "Error turning on two-factor authentication";

/**
 * 'Turn on' (with the password): a new authenticator secret, waiting for its first code. Settings
 * then shows it as a QR code and as text (the loader reads the waiting setup), with the form that
 * confirms it (confirm-two-factor). Asked again before confirming, it starts over with a new secret.
 */
export const enableTwoFactorIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: TITLE,
  hideFields: ["password"],
  async run({ password }, args) {
    await startTwoFactor(args.context, signedInAccount(args), password, TITLE);
    return {
      toast: {
        title: "Scan the QR code",
        description: "Add it to your authenticator app, then enter the code the app shows to finish.",
      },
      redirectTo: "/settings/security#two-factor",
    };
  },
});
