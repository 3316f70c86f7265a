import { z } from "zod";
import { verifyPasskeySignIn } from "#app/services/accounts/passkey-ceremonies.server.ts";
import { recordPasskeySignIn } from "#app/services/passkeys.server.ts";
import { safeRedirectPath } from "#app/utils/cookies.server.ts";
import { Refusal } from "#app/utils/domain-errors.server.ts";
import { redirectToField } from "#app/utils/form-schemas.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import { pathOf, securityEvent } from "#app/utils/log.server.ts";
import { passkeyRefusal, authenticationResponseField } from "#app/utils/passkeys.server.ts";
import { enterAccount } from "#app/utils/sign-in.server.ts";
import { limitAttempts } from "./form.server.ts";

const schema = z.object({
  intent: z.literal("passkey-signin"),
  // Absent when the form was posted without JavaScript, which the ceremony needs.
  response: authenticationResponseField.optional(),
  redirectTo: redirectToField,
});
const TITLE = "Sign in failed";
const NEEDS_JAVASCRIPT =
  "Signing in with a passkey needs JavaScript: turn it on in this browser, or sign in with your password.";

/**
 * 'Sign in with a passkey' (docs/decisions/061): the browser's answer to the challenge of
 * /auth/passkey-options, checked by the auth library against the passkey's public key. It counts
 * as two factors, so no code is asked; the password's pause after repeated failures does not
 * apply. Counted with the password sign-ins of the network.
 */
export const passkeySignInIntent = defineIntent<null, typeof schema>({
  schema,
  failureTitle: TITLE,
  async run({ response, redirectTo }, { request, context }) {
    if (!response) throw new Refusal({ title: TITLE, description: NEEDS_JAVASCRIPT });
    await limitAttempts(request, context, "sign-in");
    const answer = await verifyPasskeySignIn(context, { response, headers: request.headers });
    const refuse = () =>
      new Refusal(
        { title: TITLE, description: passkeyRefusal(answer.body.code, "sign-in"), variant: "destructive" },
        401,
      );
    if (!answer.ok || !answer.body.user) {
      securityEvent("auth.failed", {
        reason: `passkey: ${answer.body.code ?? answer.status}`,
        route: pathOf(request),
        requestId: context.requestId,
      });
      if (answer.status >= 500) throw new Error(`verifyPasskeyAuthentication answered ${answer.status}`);
      throw refuse();
    }
    await recordPasskeySignIn(context, response.id);
    const session = { user: answer.body.user, headers: answer.headers };
    // Archived past the grace period: as good as gone, answered like a passkey it no longer knows.
    const entered = await enterAccount(context, request, session, safeRedirectPath(redirectTo, "/dashboard"));
    if (!entered)
      throw new Refusal(
        { title: TITLE, description: passkeyRefusal("PASSKEY_NOT_FOUND", "sign-in"), variant: "destructive" },
        401,
      );
    return entered;
  },
});
