import { Form, useActionData } from "@remix-run/react";
import Copy from "lucide-react/icons/copy";
import Download from "lucide-react/icons/download";
import { useState, type ReactNode } from "react";
import { FormError } from "#app/components/form-messages.tsx";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { useFormReply } from "#app/utils/form-reply.ts";
import { Field } from "./field.tsx";
import type { RecoveryCodesReply, TwoFactorState } from "#app/utils/two-factor.ts";
import { QrCodeImage } from "#app/components/qr-code.tsx";
import { useHydrated } from "#app/utils/use-hydrated.ts";

/**
 * 'Two-factor authentication' (docs/decisions/060): turn on with the password, scan the QR code
 * (or type the key), confirm with a first code; then the recovery codes, shown once. Plain forms,
 * each working without JavaScript.
 */
export function TwoFactor({ state }: { state: TwoFactorState }) {
  const reply = useActionData<RecoveryCodesReply | undefined>();
  const codes = reply?.formId === "recovery-codes" ? reply.recoveryCodes : null;
  return (
    <Card id="two-factor">
      <CardHeader>
        <CardTitle as="h2">Two-factor authentication</CardTitle>
        <CardDescription>
          {state.enabled
            ? "On: signing in with your password also asks for a code from your authenticator app."
            : "Off. Turn it on to be asked for a code from an authenticator app as well as your password when you sign in. Turning it on signs you out everywhere else."}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {codes ? <RecoveryCodes codes={codes} /> : null}
        {state.enabled ? (
          <>
            <PasswordForm
              intent="regenerate-recovery-codes"
              note="New codes replace your recovery codes: the old ones stop working."
              submit="Generate new codes"
              pending="Generating..."
            />
            <TurnOff />
          </>
        ) : state.setup ? (
          <Setup setup={state.setup} />
        ) : (
          <PasswordForm intent="enable-two-factor" submit="Turn on" pending="Turning on..." />
        )}
      </CardContent>
    </Card>
  );
}

function PasswordForm({
  intent,
  note,
  submit,
  pending,
  children,
}: {
  intent: string;
  note?: string;
  submit: string;
  pending: string;
  children?: ReactNode;
}) {
  const reply = useFormReply(intent);
  const errors = reply?.result?.error ?? {};
  return (
    <Form method="post" action="/settings/security#two-factor" className="grid gap-4">
      {note ? <p className="text-sm text-muted-foreground">{note}</p> : null}
      <FormError errors={errors[""] ?? undefined} />
      <Field
        id={`${intent}-password`}
        name="password"
        label="Current Password"
        errors={errors.password}
        type="password"
        autoComplete="current-password"
      />
      {children}
      <div>
        <SubmitButton
          intent={intent}
          variant={intent === "disable-two-factor" ? "destructive" : "default"}
          pendingText={pending}
        >
          {submit}
        </SubmitButton>
      </div>
    </Form>
  );
}

/** What a code field asks of the browser: digits, and the one-time code the system may offer. */
const CODE_INPUT = { autoComplete: "one-time-code", spellCheck: false } as const;

function Setup({ setup }: { setup: NonNullable<TwoFactorState["setup"]> }) {
  const reply = useFormReply("confirm-two-factor");
  const errors = reply?.result?.error ?? {};
  return (
    <div className="grid gap-4">
      <p className="text-sm">
        Scan this QR code with your authenticator app (for example 1Password, Google Authenticator or Microsoft
        Authenticator), or enter the key below by hand. Then enter the 6-digit code the app shows.
      </p>
      <QrCodeImage qr={setup.qr} label="QR code to scan with your authenticator app" />
      <div className="grid gap-1">
        <p className="text-sm font-medium">Key</p>
        <code data-testid="two-factor-key" className="rounded-md bg-muted p-2 font-mono text-sm break-all">
          {setup.key}
        </code>
      </div>
      <Form method="post" action="/settings/security#two-factor" className="grid gap-4">
        <FormError errors={errors[""] ?? undefined} />
        <Field
          id="confirm-two-factor-code"
          name="code"
          label="Code from your app"
          errors={errors.code}
          inputMode="numeric"
          {...CODE_INPUT}
        />
        <div>
          <SubmitButton intent="confirm-two-factor" pendingText="Checking...">
            Confirm and turn on
          </SubmitButton>
        </div>
      </Form>
    </div>
  );
}

function TurnOff() {
  const reply = useFormReply("disable-two-factor");
  const errors = reply?.result?.error ?? {};
  return (
    <div className="grid gap-2 border-t pt-6">
      <h3 className="font-semibold">Turn off two-factor authentication</h3>
      <PasswordForm intent="disable-two-factor" submit="Turn off" pending="Turning off...">
        <Field
          id="disable-two-factor-code"
          name="code"
          label="Code from your app, or a recovery code"
          errors={errors.code}
          {...CODE_INPUT}
        />
      </PasswordForm>
    </div>
  );
}

function RecoveryCodes({ codes }: { codes: string[] }) {
  const hydrated = useHydrated();
  const [copied, setCopied] = useState(false);
  const text = `${codes.join("\n")}\n`;
  return (
    <section aria-labelledby="recovery-codes-title" className="grid gap-3 rounded-md border border-primary/40 p-4">
      <h3 id="recovery-codes-title" className="font-semibold">
        Your recovery codes
      </h3>
      <p className="text-sm text-muted-foreground">
        If you lose your authenticator app, each of these codes signs you in once. Keep them somewhere safe: they are
        shown only now.
      </p>
      <ul data-testid="recovery-codes" className="grid grid-cols-1 gap-1 font-mono text-sm sm:grid-cols-2">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-3">
        {hydrated ? (
          <Button
            type="button"
            variant="outline"
            onClick={() =>
              navigator.clipboard.writeText(text).then(
                () => setCopied(true),
                () => setCopied(false),
              )
            }
          >
            <Copy aria-hidden /> {copied ? "Copied" : "Copy codes"}
          </Button>
        ) : null}
        <a
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
          download="recovery-codes.txt"
          className={buttonVariants({ variant: "outline" })}
        >
          <Download aria-hidden /> Download codes
        </a>
      </div>
    </section>
  );
}
