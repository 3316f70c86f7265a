import { Form, Link } from "@remix-run/react";
import MailCheck from "lucide-react/icons/mail-check";
import { AuthCard } from "#app/components/auth-card.tsx";
import { TextField } from "#app/components/forms.tsx";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { useFormReply } from "#app/utils/form-reply.ts";
import { resendValidator } from "#app/utils/form-validators.ts";
import { useValidatedForm } from "#app/utils/use-validated-form.ts";

// /auth?mode=verify-email: after a sign-up, with a way to have the link sent again (the action
// is resendConfirmationAction in check-email.server.ts).
export function CheckEmailScreen({ email }: { email: string | null }) {
  const actionData = useFormReply("resend-verification");
  const { fields, formProps } = useValidatedForm({
    id: "resend-verification",
    validator: resendValidator,
    actionData,
    defaultValue: { email: email ?? "" },
  });
  return (
    <AuthCard
      title="Check your email"
      description={
        email
          ? `We sent a confirmation link to ${email}. Open it to finish creating your account.`
          : "We sent you a confirmation link. Open it to finish creating your account."
      }
    >
      <div className="grid gap-6">
        <MailCheck className="mx-auto size-12 text-primary" aria-hidden />
        <Link to="/auth" className={buttonVariants()}>
          Back to sign in
        </Link>
        <Form method="post" {...formProps} className="grid gap-3 border-t pt-6">
          <p className="text-sm text-muted-foreground">
            No email after a few minutes? Check your spam folder, or send it again.
          </p>
          <TextField field={fields.email} label="Email" type="email" autoComplete="email" />
          <SubmitButton intent="resend-verification" variant="outline" pendingText="Sending...">
            Resend confirmation email
          </SubmitButton>
        </Form>
      </div>
    </AuthCard>
  );
}
