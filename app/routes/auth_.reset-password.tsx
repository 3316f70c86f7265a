import { parseWithZod } from "@conform-to/zod/v4";
import { PasswordField } from "#app/components/password-field.tsx";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import XCircle from "lucide-react/icons/circle-x";
import { AuthCard } from "#app/components/auth-card.tsx";
import { FormError } from "#app/components/form-messages.tsx";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { FORGOT_PASSWORD_PATH, PRODUCT_NAME } from "#app/utils/constants.ts";
import { resetPasswordSchema } from "#app/utils/form-schemas.ts";
import { resetPasswordValidator } from "#app/utils/form-validators.ts";
import { pathOf, securityEvent } from "#app/utils/log.server.ts";
import { closeNotificationSockets } from "#app/utils/person-hub.server.ts";
import { guessablePasswordRefusal } from "#app/utils/password-rules.server.ts";
import {
  clientNetwork,
  consumeSubjectRateLimit,
  limitOrUnavailable,
  RATE_LIMIT_MESSAGE,
} from "#app/utils/rate-limit.server.ts";
import { signInWithPassword } from "#app/services/accounts/sessions.server.ts";
import { enterAccount, twoFactorHref } from "#app/utils/sign-in.server.ts";
import { redirectWithToast } from "#app/utils/cookies.server.ts";
import { replyFailure, replyRefusal, UNEXPECTED_FAILURE } from "#app/utils/form-reply.server.ts";
import { useFormReply } from "#app/utils/form-reply.ts";
import { useValidatedForm } from "#app/utils/use-validated-form.ts";
import { resetPassword } from "#app/services/accounts/passwords.server.ts";
import { clearPasswordFailuresOf } from "#app/services/sign-in-lockout.server.ts";
import { confirmAddressByReset } from "#app/services/sign-up.server.ts";
import { findPasswordResetAccount } from "#db/queries/accounts.ts";

export const meta: MetaFunction = () => [{ title: `Choose a new password · ${PRODUCT_NAME}` }];

const HIDDEN = ["newPassword", "confirmPassword"];

// Opening the link changes nothing (mail scanners open links too); the token is consumed only by
// the form's POST. It may be opened signed in or out: setting the password signs this browser in.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const account = token ? await findPasswordResetAccount(context.db, token) : null;
  return { token: account ? token : null };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: resetPasswordSchema });
  if (submission.status !== "success") {
    return replyFailure({ formId: "reset-password", submission, hideFields: HIDDEN });
  }
  const within = await limitOrUnavailable(
    consumeSubjectRateLimit(context.db, "reset-password", clientNetwork(request)),
  );
  const form = { formId: "reset-password", submission, hideFields: HIDDEN };
  if (within === null)
    return replyRefusal(form, { title: "Error changing password", description: UNEXPECTED_FAILURE }, 500);
  if (!within) return replyRefusal(form, { title: "Too many attempts", description: RATE_LIMIT_MESSAGE }, 429);
  const { token, newPassword } = submission.value;
  const account = await findPasswordResetAccount(context.db, token);
  // Refused before the library consumes the token, so the same link can try another.
  const guessable = account && guessablePasswordRefusal(newPassword, account, "newPassword");
  if (guessable) {
    const { toast, fieldErrors } = guessable;
    return replyFailure({ formId: "reset-password", submission, toast, fieldErrors, hideFields: HIDDEN });
  }
  // The library consumes the token and ends every session of the account in one transaction.
  const reset = account ? await resetPassword(context, { token, newPassword }) : false;
  if (!account || !reset) {
    securityEvent("auth.failed", {
      reason: "invalid, used or expired password reset token",
      route: pathOf(request),
      requestId: context.requestId,
    });
    return linkExpired();
  }
  context.cloudflare.ctx.waitUntil(closeNotificationSockets(context, account.id));
  if (!account.emailVerified) await confirmAddressByReset(context, account.id);
  // The mailbox is the owner's: a pause of password sign-in after wrong guesses ends.
  await clearPasswordFailuresOf(context, account.email);

  const session = await signInWithPassword(context, {
    headers: request.headers,
    email: account.email,
    password: newPassword,
    remember: false,
  });
  // A reset does not turn two-factor off: the code is still asked before the account opens.
  if (session.twoFactor) {
    return redirectWithToast(
      context.env,
      request,
      twoFactorHref("/dashboard"),
      { title: "Password updated", description: "Enter the code from your authenticator app to sign in." },
      { headers: session.headers },
    );
  }
  const entered =
    session.ok && session.body.user
      ? await enterAccount(context, request, { user: session.body.user, headers: session.headers }, "/dashboard", {
          title: "Password updated",
        })
      : null;
  // Archived past the grace period (about to be purged): the password is set, nobody is signed in.
  return entered ?? linkExpired();
}

/** Not a failed form but a dead link: the page says so and offers a new one instead of the form. */
const linkExpired = () => data({ expired: true }, { status: 400 });

export default function ResetPassword() {
  const { token } = useLoaderData<typeof loader>();
  const expired = useActionData<{ expired?: boolean }>()?.expired;
  const actionData = useFormReply("reset-password");
  const { form, fields, formProps } = useValidatedForm({
    id: "reset-password",
    validator: resetPasswordValidator,
    actionData,
  });

  if (!token || expired) {
    return (
      <AuthCard
        title="This link has expired"
        description="Password reset links work once, for 1 hour. This one was already used or is too old. Ask for a new one."
      >
        <div className="grid justify-items-center gap-4">
          <XCircle className="size-12 text-destructive" aria-hidden />
          <Link to={FORGOT_PASSWORD_PATH} className={buttonVariants()}>
            Send me a new link
          </Link>
          <Link to="/auth" className="text-sm font-medium text-primary hover:underline">
            Back to sign in
          </Link>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Choose a new password" description="Setting it signs you out everywhere else.">
      <Form method="post" {...formProps} className="grid gap-4">
        <input type="hidden" name="token" value={token} />
        <FormError errors={form.errors} />
        <PasswordField
          field={fields.newPassword}
          label="New Password"
          autoComplete="new-password"
          hint="At least 6 characters."
          autoFocus
        />
        <PasswordField field={fields.confirmPassword} label="Confirm New Password" autoComplete="new-password" />
        <SubmitButton intent="reset-password" pendingText="Saving...">
          Set new password
        </SubmitButton>
      </Form>
    </AuthCard>
  );
}
