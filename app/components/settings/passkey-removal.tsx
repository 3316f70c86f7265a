import { useSubmit } from "@remix-run/react";
import { useState } from "react";
import { FormError } from "#app/components/form-messages.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { useHydrated } from "#app/utils/use-hydrated.ts";
import { ceremonyFailure, passkeyOptions, passkeysSupported, signWithPasskey } from "#app/utils/webauthn.ts";

/** What 'Remove' asks, with or without another passkey to confirm with (decision 091). */
export const removalDescription = (others: boolean) =>
  others
    ? "It will no longer sign you in. Enter your password, or use another of your passkeys, to confirm."
    : "It will no longer sign you in. Enter your password to confirm.";

/**
 * 'Use another passkey' in the removal's confirmation (decision 091): the browser signs a fresh
 * challenge with a passkey the person picks, and the answer is posted instead of the password.
 * It needs JavaScript, so it shows only once the page is hydrated; the password form works without.
 */
export function ConfirmWithAnotherPasskey({ passkeyId, errors }: { passkeyId: string; errors?: string[] }) {
  const hydrated = useHydrated();
  const submit = useSubmit();
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!hydrated || !passkeysSupported()) return <FormError errors={errors} />;

  const confirm = async () => {
    if (busy) return;
    setFailure(null);
    setBusy(true);
    try {
      const response = await signWithPasskey(await passkeyOptions());
      submit(
        { intent: "remove-passkey", passkeyId, response },
        { method: "post", action: "/settings/security#passkeys" },
      );
    } catch (error) {
      const message =
        (error as { code?: string }).code === "OPTIONS" ? (error as Error).message : ceremonyFailure(error, "sign-in");
      if (message) setFailure(message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="grid gap-2">
      <FormError errors={failure ? [failure] : errors} />
      <Button type="button" variant="outline" disabled={busy} onClick={() => void confirm()}>
        {busy ? "Waiting for your passkey..." : "Use another passkey"}
      </Button>
    </div>
  );
}
