import { parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import MailCheck from "lucide-react/icons/mail-check";
import { AuthCard } from "#app/components/auth-card.tsx";
import { FormError } from "#app/components/form-messages.tsx";
import { TextField } from "#app/components/forms.tsx";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { FORGOT_PASSWORD_PATH, PRODUCT_NAME } from "#app/utils/constants.ts";
import { requestPasswordReset } from "#app/services/accounts/passwords.server.ts";
import { redirectWithToast } from "#app/utils/cookies.server.ts";
import { forgotPasswordSchema } from "#app/utils/form-schemas.ts";
import { forgotPasswordValidator } from "#app/utils/form-validators.ts";
import { emailFingerprint, pathOf, securityEvent } from "#app/utils/log.server.ts";
import {
  ADDRESS_LIMIT_MESSAGE,
  consumeRateLimit,
  consumeSubjectRateLimit,
  limitOrUnavailable,
  RATE_LIMIT_MESSAGE,
} from "#app/utils/rate-limit.server.ts";
import { requireAnonymous } from "#app/utils/session.server.ts";
import { replyFailure, replyRefusal, UNEXPECTED_FAILURE } from "#app/utils/form-reply.server.ts";
import { useFormReply } from "#app/utils/form-reply.ts";
import { useValidatedForm } from "#app/utils/use-validated-form.ts";

export const meta: MetaFunction = () => [{ title: `Forgot password · ${PRODUCT_NAME}` }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAnonymous(context);
  const url = new URL(request.url);
  // After a request: the same page for every address, whether or not it has an account.
  return { sentTo: url.searchParams.get("sent"), email: url.searchParams.get("email") };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(context);
  const submission = parseWithZod(await request.formData(), { schema: forgotPasswordSchema });
  if (submission.status !== "success") {
    return replyFailure({ formId: "forgot-password", submission });
  }
  const { email } = submission.value;
  const fingerprint = await emailFingerprint(email);
  // One network cannot try many addresses, nor many networks one.
  let refusal: string | null = null;
  const byNetwork = await limitOrUnavailable(consumeRateLimit(context.db, request, "forgot-password"));
  const byAddress =
    byNetwork &&
    (await limitOrUnavailable(consumeSubjectRateLimit(context.db, "forgot-password-address", fingerprint)));
  if (byNetwork === null || byAddress === null) {
    return replyRefusal(
      { formId: "forgot-password", submission },
      { title: "Error", description: UNEXPECTED_FAILURE },
      500,
    );
  }
  if (!byNetwork) refusal = RATE_LIMIT_MESSAGE;
  else if (!byAddress) refusal = ADDRESS_LIMIT_MESSAGE;
  if (refusal) {
    securityEvent("auth.failed", {
      reason: "rate limited",
      action: "forgot-password",
      route: pathOf(request),
      requestId: context.requestId,
      email: fingerprint,
    });
    return replyRefusal(
      { formId: "forgot-password", submission },
      { title: "Too many attempts", description: refusal },
      429,
    );
  }
  // Unknown addresses are answered exactly like known ones, and as fast: the library looks the
  // address up and mails only known ones, after the answer.
  requestPasswordReset(context, { email, headers: request.headers });
  return redirectWithToast(context.env, request, `${FORGOT_PASSWORD_PATH}?sent=${encodeURIComponent(email)}`, {
    title: "Check your email",
    description: `If ${email} has an account, a link to choose a new password is on its way.`,
  });
}

export default function ForgotPassword() {
  const { sentTo, email } = useLoaderData<typeof loader>();
  const actionData = useFormReply("forgot-password");
  const { form, fields, formProps } = useValidatedForm({
    id: "forgot-password",
    validator: forgotPasswordValidator,
    actionData,
    defaultValue: { email: email ?? sentTo ?? "" },
  });

  if (sentTo) {
    return (
      <AuthCard
        title="Check your email"
        description={`If ${sentTo} has an account, we sent it a link to choose a new password. The link works once, for 1 hour.`}
      >
        <div className="grid gap-6">
          <MailCheck className="mx-auto size-12 text-primary" aria-hidden />
          <Link to="/auth" className={buttonVariants()}>
            Back to sign in
          </Link>
          <p className="text-center text-sm text-muted-foreground">
            No email after a few minutes? Check your spam folder, or{" "}
            <Link to={FORGOT_PASSWORD_PATH} className="font-medium text-primary hover:underline">
              ask for another link
            </Link>
            .
          </p>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Forgot password?"
      description="Enter the email address of your account and we will send you a link to choose a new password."
    >
      <Form method="post" {...formProps} className="grid gap-4">
        <FormError errors={form.errors} />
        <TextField field={fields.email} label="Email" type="email" autoComplete="email" autoFocus />
        <SubmitButton intent="forgot-password" pendingText="Sending...">
          Send reset link
        </SubmitButton>
      </Form>
      <p className="mt-6 text-center text-sm text-muted-foreground">
        Remembered it?{" "}
        <Link to="/auth" className="font-medium text-primary hover:underline">
          Sign in
        </Link>
      </p>
    </AuthCard>
  );
}
