import { z } from "zod";
import { STEP_UP_TITLE, stepUpWithCode, stepUpWithPasskey } from "#app/services/accounts/step-up.server.ts";
import { safeRedirectPath } from "#app/utils/cookies.server.ts";
import { Refusal } from "#app/utils/domain-errors.server.ts";
import { redirectToField } from "#app/utils/form-schemas.ts";
import { defineIntent, type IntentArgs } from "#app/utils/intent.server.ts";
import { authenticationResponseField } from "#app/utils/passkeys.server.ts";
import { authenticatorCodeField, recoveryCodeField } from "#app/utils/second-factor-fields.ts";
import { signedInAccount } from "#app/utils/signed-in-account.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

// The forms of /auth/step-up (decision 089): each confirms this session, then goes where the
// person was going (a same-site path only), told so.

export const NEEDS_JAVASCRIPT =
  "Confirming with a passkey needs JavaScript: turn it on in this browser, or use a code from your authenticator app.";

const CONFIRMED = { title: "Sign-in confirmed", description: "Thank you. You can carry on where you were." };

const codeSchema = z.object({
  intent: z.literal("confirm-code"),
  code: authenticatorCodeField,
  redirectTo: redirectToField,
});
const recoverySchema = z.object({
  intent: z.literal("confirm-recovery-code"),
  code: recoveryCodeField,
  redirectTo: redirectToField,
});
const passkeySchema = z.object({
  intent: z.literal("confirm-passkey"),
  // Absent when the form was posted without JavaScript, which the ceremony needs.
  response: authenticationResponseField.optional(),
  redirectTo: redirectToField,
});

/** The session confirming itself, as the accounts service takes it. */
const confirming = (args: IntentArgs<Viewer>) => signedInAccount(args);
const done = (redirectTo: string | undefined) => ({
  toast: CONFIRMED,
  redirectTo: safeRedirectPath(redirectTo, "/dashboard"),
});

const codeIntent = (recovery: boolean) =>
  defineIntent<Viewer, typeof codeSchema | typeof recoverySchema>({
    schema: recovery ? recoverySchema : codeSchema,
    failureTitle: STEP_UP_TITLE,
    hideFields: ["code"],
    async run({ code, redirectTo }, args) {
      await stepUpWithCode(args.context, confirming(args), { code, recovery });
      return done(redirectTo);
    },
  });

export const confirmCodeIntent = codeIntent(false);
export const confirmRecoveryCodeIntent = codeIntent(true);

export const confirmPasskeyIntent = defineIntent<Viewer, typeof passkeySchema>({
  schema: passkeySchema,
  failureTitle: STEP_UP_TITLE,
  async run({ response, redirectTo }, args) {
    if (!response) throw new Refusal({ title: STEP_UP_TITLE, description: NEEDS_JAVASCRIPT });
    await stepUpWithPasskey(args.context, confirming(args), response);
    return done(redirectTo);
  },
});
