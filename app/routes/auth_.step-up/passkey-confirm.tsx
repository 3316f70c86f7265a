import { Form, useSubmit } from "@remix-run/react";
import KeyRound from "lucide-react/icons/key-round";
import { useEffect, useState, type FormEvent } from "react";
import { FormError } from "#app/components/form-messages.tsx";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { useFormReply } from "#app/utils/form-reply.ts";
import { ceremonyFailure, passkeyOptions, signWithPasskey } from "#app/utils/webauthn.ts";

/**
 * 'Use your passkey' (decision 089): the browser signs the challenge with a passkey the person
 * picks, and the answer is posted to confirm this session. Without JavaScript the button posts
 * the form, which the server answers with what it needs.
 */
export function PasskeyConfirm({ redirectTo, primary }: { redirectTo: string; primary: boolean }) {
  const submit = useSubmit();
  const reply = useFormReply("confirm-passkey");
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => setBusy(false), [reply]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setFailure(null);
    setBusy(true);
    try {
      const response = await signWithPasskey(await passkeyOptions());
      submit({ intent: "confirm-passkey", response, redirectTo }, { method: "post" });
    } catch (error) {
      const message =
        (error as { code?: string }).code === "OPTIONS" ? (error as Error).message : ceremonyFailure(error, "sign-in");
      if (message) setFailure(message);
      setBusy(false);
    }
  };
  const errors = failure ? [failure] : (reply?.result?.error?.[""] ?? reply?.result?.error?.response ?? undefined);
  return (
    <Form method="post" onSubmit={(event) => void onSubmit(event)} className="grid gap-3">
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <FormError errors={errors} />
      <SubmitButton
        intent="confirm-passkey"
        variant={primary ? "default" : "outline"}
        pendingText="Checking..."
        disabled={busy}
      >
        <KeyRound aria-hidden />
        {busy ? "Waiting for your passkey..." : "Use your passkey"}
      </SubmitButton>
    </Form>
  );
}
