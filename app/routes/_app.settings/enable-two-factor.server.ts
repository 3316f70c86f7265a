import { z } from "zod";
import { PRODUCT_NAME } from "#app/utils/constants.ts";
import { Refusal } from "#app/utils/domain-errors.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";
import { checkPassword } from "./two-factor-checks.server.ts";

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
    const { request, context } = args;
    await checkPassword(args, TITLE, password);
    const response = await context.auth.api.enableTwoFactor({
      body: { password, issuer: PRODUCT_NAME },
      headers: request.headers,
      asResponse: true,
    });
    if (response.status === 400) {
      throw new Refusal({ title: TITLE, description: "Two-factor authentication is already on." });
    }
    if (!response.ok) throw new Error(`enableTwoFactor answered ${response.status}`);
    return {
      toast: {
        title: "Scan the QR code",
        description: "Add it to your authenticator app, then enter the code the app shows to finish.",
      },
      redirectTo: "/settings#two-factor",
    };
  },
});
