import { Form, Link, useSearchParams } from "@remix-run/react";
import { PasswordField } from "#app/components/password-field.tsx";
import Building2 from "lucide-react/icons/building-complex";
import UserRound from "lucide-react/icons/user-round";
import { AuthCard } from "#app/components/auth-card.tsx";
import { FormError } from "#app/components/form-messages.tsx";
import { TextareaField, TextField } from "#app/components/forms.tsx";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { useFormReply } from "#app/utils/form-reply.ts";
import type { orgSignUpSchema, signUpSchema } from "#app/utils/form-schemas.ts";
import { orgSignUpValidator, signUpValidator } from "#app/utils/form-validators.ts";
import { useValidatedForm } from "#app/utils/use-validated-form.ts";
import { modeHref } from "./screens.ts";

// /auth?mode=signup: choose the account type; /auth?mode=personal and ?mode=organisation: the
// sign-up forms (the action is signUpAction in sign-up.server.ts).
export function ChooseAccountTypeScreen() {
  const [searchParams] = useSearchParams();
  const choices = [
    {
      mode: "signup" as const,
      icon: UserRound,
      title: "Personal",
      text: "Keep your own career passport and share it with anyone.",
    },
    {
      mode: "org-signup" as const,
      icon: Building2,
      title: "Organisation",
      text: "Recognise your team and manage your members.",
    },
  ];
  return (
    <AuthCard title="Create your account" description="What kind of account do you need?">
      <ul className="grid gap-3">
        {choices.map(({ mode, icon: Icon, title, text }) => (
          <li key={mode}>
            <Link
              to={modeHref(mode, searchParams)}
              className="flex items-start gap-4 rounded-lg border p-4 transition-colors hover:border-primary hover:bg-accent"
            >
              <span className="grid size-10 shrink-0 place-items-center rounded-lg bg-primary/10 text-primary">
                <Icon className="size-5" aria-hidden />
              </span>
              <span>
                <span className="block font-semibold">{title}</span>
                <span className="block text-sm text-muted-foreground">{text}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
      <p className="mt-6 text-center text-sm text-muted-foreground">
        Already have an account?{" "}
        <Link to={modeHref("signin", searchParams)} className="font-medium text-primary hover:underline">
          Sign in
        </Link>
      </p>
    </AuthCard>
  );
}

export function SignUpScreen({ organisation }: { organisation: boolean }) {
  const [searchParams] = useSearchParams();
  const validator = organisation ? orgSignUpValidator : signUpValidator;
  const intent = organisation ? "org-signup" : "signup";
  const actionData = useFormReply(intent);
  const { form, fields, formProps } = useValidatedForm<typeof signUpSchema | typeof orgSignUpSchema>({
    id: intent,
    validator,
    actionData,
  });
  const orgFields = fields as typeof fields & ReturnType<typeof useValidatedForm<typeof orgSignUpSchema>>["fields"];
  return (
    <AuthCard
      title={organisation ? "Create an organisation account" : "Create your passport"}
      description={
        organisation
          ? "Recognise your members with achievements they keep for life."
          : "Start your lifelong record of achievements."
      }
    >
      <Form method="post" {...formProps} className="grid gap-4">
        <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? ""} />
        <FormError errors={form.errors} />
        <TextField field={fields.name} label="Full Name" autoComplete="name" autoFocus />
        <TextField field={fields.email} label="Email" type="email" autoComplete="email" />
        <PasswordField
          field={fields.password}
          label="Password"
          autoComplete="new-password"
          hint="At least 6 characters."
        />
        {organisation ? (
          <>
            <TextField field={orgFields.organizationName} label="Organisation Name" autoComplete="organization" />
            <TextareaField
              field={orgFields.organizationDescription}
              label="Organisation Description (optional)"
              rows={3}
            />
          </>
        ) : null}
        <SubmitButton intent={intent} pendingText="Creating account...">
          Create Account
        </SubmitButton>
      </Form>
      <p className="mt-6 text-center text-sm text-muted-foreground">
        <Link to={modeHref("choose", searchParams)} className="font-medium text-primary hover:underline">
          Choose another account type
        </Link>
        {" · "}
        <Link to={modeHref("signin", searchParams)} className="font-medium text-primary hover:underline">
          Sign in
        </Link>
      </p>
    </AuthCard>
  );
}
