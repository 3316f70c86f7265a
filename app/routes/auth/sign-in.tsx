import { Form, Link, useSearchParams } from "@remix-run/react";
import { PasswordField } from "#app/components/password-field.tsx";
import { AuthCard } from "#app/components/auth-card.tsx";
import { FormError } from "#app/components/form-messages.tsx";
import { TextField } from "#app/components/forms.tsx";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { Checkbox } from "#app/components/ui/checkbox.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { FORGOT_PASSWORD_PATH } from "#app/utils/constants.ts";
import { useFormReply } from "#app/utils/form-reply.ts";
import { signInValidator } from "#app/utils/form-validators.ts";
import { useValidatedForm } from "#app/utils/use-validated-form.ts";
import { PasskeySignIn } from "./passkey-sign-in.tsx";
import { modeHref } from "./screens.ts";

// /auth: sign in (the action is signInAction in sign-in.server.ts).
export function SignInScreen() {
  const actionData = useFormReply("signin");
  const [searchParams] = useSearchParams();
  const { form, fields, formProps } = useValidatedForm({ id: "signin", validator: signInValidator, actionData });
  const redirectTo = searchParams.get("redirectTo") ?? "";
  return (
    <AuthCard title="Sign in" description="Welcome back. Sign in to your passport.">
      <Form method="post" {...formProps} className="grid gap-4">
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <FormError errors={form.errors} />
        {/* `webauthn`: the browser may offer the person's passkeys among the field's suggestions. */}
        <TextField field={fields.email} label="Email" type="email" autoComplete="email webauthn" autoFocus />
        <PasswordField field={fields.password} label="Password" autoComplete="current-password" />
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div className="flex items-center gap-2">
            <Checkbox id="remember" name="remember" defaultChecked={fields.remember.initialValue === "on"} />
            <Label htmlFor="remember">Keep me signed in</Label>
          </div>
          <Link to={FORGOT_PASSWORD_PATH} className="text-sm font-medium text-primary hover:underline">
            Forgot password?
          </Link>
        </div>
        <SubmitButton intent="signin" pendingText="Signing in...">
          Sign In
        </SubmitButton>
      </Form>
      <div className="my-4 flex items-center gap-3 text-xs text-muted-foreground uppercase" aria-hidden>
        <span className="h-px flex-1 bg-border" />
        or
        <span className="h-px flex-1 bg-border" />
      </div>
      <PasskeySignIn redirectTo={redirectTo} />
      <p className="mt-6 text-center text-sm text-muted-foreground">
        New here?{" "}
        <Link to={modeHref("choose", searchParams)} className="font-medium text-primary hover:underline">
          Create an account
        </Link>
      </p>
    </AuthCard>
  );
}
