import { Form } from "@remix-run/react";
import { AuthCard } from "#app/components/auth-card.tsx";
import { FieldError } from "#app/components/form-messages.tsx";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { PasswordInput } from "#app/components/ui/password-input.tsx";
import { Label } from "#app/components/ui/label.tsx";

/**
 * The link was opened in a browser that did not sign up: the account's password confirms it
 * (a plain form, with or without JavaScript).
 */
export function PasswordStep({ token, error }: { token: string; error: string | null | undefined }) {
  return (
    <AuthCard
      title="Enter your password"
      description="This link was opened in a different browser from the one you signed up in. Enter your password to confirm your email address."
    >
      <Form method="post" className="grid gap-4">
        <input type="hidden" name="token" value={token} />
        <div className="grid gap-2">
          <Label htmlFor="confirm-password">Password</Label>
          <PasswordInput
            id="confirm-password"
            name="password"
            autoComplete="current-password"
            required
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "confirm-password-error" : undefined}
          />
          <FieldError id="confirm-password-error" errors={error ? [error] : undefined} />
        </div>
        <SubmitButton pendingText="Confirming...">Confirm my email</SubmitButton>
      </Form>
    </AuthCard>
  );
}
