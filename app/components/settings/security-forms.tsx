import { Form } from "@remix-run/react";
import { PasswordField } from "#app/components/password-field.tsx";
import { FormError } from "#app/components/form-messages.tsx";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { useFormReply } from "#app/utils/form-reply.ts";
import { passwordValidator } from "#app/utils/form-validators.ts";
import type { TwoFactorState } from "#app/utils/two-factor.ts";
import { useValidatedForm } from "#app/utils/use-validated-form.ts";
import { Passkeys, type PasskeysState } from "./passkeys.tsx";
import { TwoFactor } from "./two-factor.tsx";

/**
 * Settings' security section (/settings/security): the password, passkeys and two-factor sign-in.
 * A chunk of its own, with Conform, hydrated after the page's first interaction (decision 049).
 */
export function SecurityForms({ twoFactor, passkeys }: { twoFactor: TwoFactorState; passkeys: PasskeysState }) {
  return (
    <>
      <ChangePassword />
      <Passkeys state={passkeys} />
      <TwoFactor state={twoFactor} />
    </>
  );
}

function ChangePassword() {
  const actionData = useFormReply("change-password");
  const { form, fields, formProps } = useValidatedForm({
    id: "change-password",
    validator: passwordValidator,
    actionData,
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Change Password</CardTitle>
        <CardDescription>Changing your password signs you out everywhere else.</CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" {...formProps} className="grid gap-4">
          <FormError errors={form.errors} />
          <PasswordField field={fields.currentPassword} label="Current Password" autoComplete="current-password" />
          <PasswordField field={fields.newPassword} label="New Password" autoComplete="new-password" />
          <PasswordField field={fields.confirmPassword} label="Confirm New Password" autoComplete="new-password" />
          <div>
            <SubmitButton intent="change-password" pendingText="Updating...">
              Update Password
            </SubmitButton>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}
