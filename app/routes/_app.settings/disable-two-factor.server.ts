import { z } from "zod";
import { mailSignInMethodChange } from "#app/services/sign-in-method-mail.server.ts";
import { Refusal } from "#app/utils/domain-errors.server.ts";
import { mergeHeaders } from "#app/utils/form-reply.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import { readAuthenticator } from "#app/utils/two-factor.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";
import { checkPassword, checkSecondFactor, ownerOf } from "./two-factor-checks.server.ts";

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
    const { request, context, viewer } = args;
    if (!(await readAuthenticator(context, viewer.id)).enabled) {
      throw new Refusal({ title: TITLE, description: "Two-factor authentication is not on." });
    }
    await checkPassword(args, TITLE, password);
    const secondFactor = await checkSecondFactor(args, TITLE, code, { orRecoveryCode: true });
    if (!(await secondFactor.spend())) {
      throw new Refusal({ title: TITLE, description: "That code was already used." }, 400, {
        code: ["That code was already used."],
      });
    }
    const response = await context.auth.api.disableTwoFactor({
      body: { password },
      headers: request.headers,
      asResponse: true,
    });
    if (!response.ok) throw new Error(`disableTwoFactor answered ${response.status}`);
    mailSignInMethodChange(context, { ...ownerOf(args), change: "two-factor off" });
    return {
      toast: {
        title: "Two-factor authentication is off",
        description: "Signing in now asks for your password only.",
      },
      redirectTo: "/settings#two-factor",
      headers: mergeHeaders(response.headers),
    };
  },
});
