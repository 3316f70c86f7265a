import type { AppLoadContext } from "@remix-run/cloudflare";
import { redirectWithToast } from "#app/utils/cookies.server.ts";
import { resendSchema } from "#app/utils/form-schemas.ts";
import { readAuthForm } from "./form.server.ts";
import { checkEmailHref } from "./screens.ts";

/**
 * Send the confirmation link again (intent `resend-verification`). Answered the same whether or
 * not the address has an account waiting, so it tells nobody which addresses exist.
 */
export async function resendConfirmationAction(request: Request, context: AppLoadContext, formData: FormData) {
  const form = await readAuthForm(request, context, formData, { schema: resendSchema, limit: "resend-verification" });
  if ("reply" in form) return form.reply;
  const { email } = form.value;
  await context.auth.api.sendVerificationEmail({ body: { email }, headers: request.headers }).catch(() => {});
  return redirectWithToast(context.env, request, checkEmailHref(email), {
    title: "Check your email",
    description: `If ${email} has an account waiting for confirmation, a new link is on its way.`,
  });
}
