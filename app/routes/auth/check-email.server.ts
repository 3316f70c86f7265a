import { mailConfirmationLink } from "#app/services/accounts/email-and-password.server.ts";
import { resendSchema } from "#app/utils/form-schemas.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import { limitAttempts, limitMailsTo } from "./form.server.ts";
import { checkEmailHref } from "./screens.ts";

/**
 * Send the confirmation link again (intent `resend-verification`). Answered the same whether or
 * not the address has an account waiting, so it tells nobody which addresses exist.
 */
export const resendConfirmationIntent = defineIntent<null, typeof resendSchema>({
  schema: resendSchema,
  failureTitle: "Error",
  async run({ email }, { request, context }) {
    await limitAttempts(request, context, "resend-verification");
    await limitMailsTo(request, context, email);
    // After the answer: looking the address up and mailing it would make a waiting account slower to answer.
    mailConfirmationLink(context, { email, headers: request.headers });
    return {
      toast: {
        title: "Check your email",
        description: `If ${email} has an account waiting for confirmation, a new link is on its way.`,
      },
      redirectTo: checkEmailHref(email),
    };
  },
});
