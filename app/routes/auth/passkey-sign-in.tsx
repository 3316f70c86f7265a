import { Form, useSubmit } from "@remix-run/react";
import type { PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import KeyRound from "lucide-react/icons/key-round";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { FormError } from "#app/components/form-messages.tsx";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { useFormReply } from "#app/utils/form-reply.ts";
import { useHydrated } from "#app/utils/use-hydrated.ts";
import { ceremonyFailure, passkeyAutofillSupported, passkeysSupported, signWithPasskey } from "#app/utils/webauthn.ts";

/** Where the page asks for a passkey sign-in's challenge (app/routes/auth_.passkey-options.ts). */
const PASSKEY_OPTIONS_PATH = "/auth/passkey-options";

async function passkeyOptions() {
  const response = await fetch(PASSKEY_OPTIONS_PATH, { method: "POST" });
  const body = (await response.json().catch(() => ({}))) as PublicKeyCredentialRequestOptionsJSON & {
    message?: string;
  };
  if (!response.ok) throw Object.assign(new Error(body.message ?? "No passkey options"), { code: "OPTIONS" });
  return body;
}

/**
 * 'Sign in with a passkey' (docs/decisions/061), and the same offered in the e-mail field's
 * autofill where the browser can (the field is marked `webauthn`). Without JavaScript the button
 * posts a form the server answers with what it needs.
 */
export function PasskeySignIn({ redirectTo }: { redirectTo: string }) {
  const hydrated = useHydrated();
  const submit = useSubmit();
  const reply = useFormReply("passkey-signin");
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The ceremony, kept current for the effect that starts the autofill's once.
  const signIn = useRef<(autofill: boolean) => Promise<void>>(undefined);
  // Set once a passkey has answered and its sign-in is posted: the autofill and the button may
  // both be under way, and only the first answer counts. A refusal's reply opens the way again.
  const answered = useRef(false);
  useEffect(() => {
    answered.current = false;
    setBusy(false);
  }, [reply]);

  signIn.current = async (autofill: boolean) => {
    if (answered.current) return;
    setFailure(null);
    if (!autofill) setBusy(true);
    try {
      const response = await signWithPasskey(await passkeyOptions(), { autofill });
      if (answered.current) return;
      answered.current = true;
      setBusy(true);
      submit({ intent: "passkey-signin", response, redirectTo }, { method: "post", action: "/auth" });
    } catch (error) {
      const message =
        (error as { code?: string }).code === "OPTIONS" ? (error as Error).message : ceremonyFailure(error, "sign-in");
      // The autofill's wait ends quietly when the person chooses the button (or leaves).
      if (message && !autofill) setFailure(message);
      setBusy(false);
    }
  };

  useEffect(() => {
    void passkeyAutofillSupported().then((supported) => {
      if (supported) void signIn.current?.(true);
    });
  }, []);

  if (hydrated && !passkeysSupported()) return null;
  const errors = failure ? [failure] : (reply?.result?.error?.[""] ?? reply?.result?.error?.response ?? undefined);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void signIn.current?.(false);
  };
  return (
    <Form method="post" onSubmit={onSubmit} className="grid gap-3">
      <FormError errors={errors} />
      <SubmitButton intent="passkey-signin" variant="outline" pendingText="Signing in..." disabled={busy}>
        <KeyRound aria-hidden />
        {busy ? "Waiting for your passkey..." : "Sign in with a passkey"}
      </SubmitButton>
    </Form>
  );
}
