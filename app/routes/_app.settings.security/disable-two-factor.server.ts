import { z } from "zod";
import { turnOffTwoFactor } from "#app/services/accounts/two-factor.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import { signedInAccount } from "#app/utils/signed-in-account.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const schema = z.object({
  intent: z.literal("disable-two-factor"),
  password: z.string().default(""),
  code: z.string().default(""),
});
const TITLE = "Error turning off two-factor authentication";

/**
 * 'Turn off' asks for the password and a current code (or a recovery code): a session left open
 * is not enough. The library then forgets the secret, the codes and this browser's trust.
 */
export const disableTwoFactorIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: TITLE,
  hideFields: ["password", "code"],
  async run({ password, code }, args) {
    const cookies = await turnOffTwoFactor(args.context, signedInAccount(args), { password, code, title: TITLE });
    return {
      toast: {
        title: "Two-factor authentication is off",
        description: "Signing in now asks for your password only.",
      },
      redirectTo: "/settings/security#two-factor",
      headers: cookies,
    };
  },
});
