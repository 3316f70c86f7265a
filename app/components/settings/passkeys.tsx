import { Form, useActionData, useSubmit } from "@remix-run/react";
import type { PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/browser";
import { useState } from "react";
import { ConfirmAction } from "#app/components/confirm-action.tsx";
import { FormError } from "#app/components/form-messages.tsx";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { PASSKEY_NAME_MAX_LENGTH } from "#app/utils/constants.ts";
import { useFormReply } from "#app/utils/form-reply.ts";
import { formatRelativeTime } from "#app/utils/relative-time.ts";
import { useHydrated } from "#app/utils/use-hydrated.ts";
import { ceremonyFailure, createPasskey, passkeysSupported } from "#app/utils/webauthn.ts";
import { Field } from "./field.tsx";
import { ConfirmWithAnotherPasskey, removalDescription } from "./passkey-removal.tsx";

/** One of the person's passkeys, as the server describes it (its label from its name or its password manager). */
export type PasskeyRow = {
  id: string;
  label: string;
  name: string | null;
  synced: boolean;
  createdAt: number;
  lastUsedAt: number | null;
};

export type PasskeysState = {
  items: PasskeyRow[];
  max: number;
  /** The server's clock when the page was read: times read the same before and after hydration. */
  now: number;
};

/** What 'Continue' answers: the options the browser creates the passkey with. */
type OptionsReply = { formId: "passkey-options"; passkeyOptions: PublicKeyCredentialCreationOptionsJSON; name: string };

const ADDED_ON = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" });

/**
 * 'Passkeys' (docs/decisions/061): the person's passkeys, each renamed or removed with a plain
 * form, and 'Add a passkey': the password, then 'Create passkey', the one step that needs
 * JavaScript (the browser creates the passkey).
 */
export function Passkeys({ state }: { state: PasskeysState }) {
  return (
    <Card id="passkeys">
      <CardHeader>
        <CardTitle as="h2">Passkeys</CardTitle>
        <CardDescription>
          Sign in with your fingerprint, face or screen lock instead of your password. A passkey stays on your device or
          in your password manager, and signing in with one needs no code from an authenticator app.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {state.items.length > 0 ? (
          <ul className="grid divide-y rounded-md border" aria-label="Your passkeys">
            {state.items.map((passkey) => (
              <PasskeyItem key={passkey.id} passkey={passkey} now={state.now} others={state.items.length > 1} />
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">No passkeys yet.</p>
        )}
        {state.items.length < state.max ? (
          <AddPasskey />
        ) : (
          <p className="text-sm text-muted-foreground">
            You have {state.max} passkeys, the most one account can hold. Remove one to add another.
          </p>
        )}
      </CardContent>
    </Card>
  );
}

function PasskeyItem({ passkey, now, others }: { passkey: PasskeyRow; now: number; others: boolean }) {
  const removeId = `remove-passkey-${passkey.id}`;
  const renameId = `rename-passkey-${passkey.id}`;
  const removeErrors = useFormReply(removeId)?.result?.error ?? {};
  const renameReply = useFormReply(renameId);
  const renameErrors = renameReply?.result?.error ?? {};
  return (
    <li className="grid gap-3 p-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="grid gap-0.5">
          <p className="flex items-center gap-2 font-medium">
            {passkey.label}
            {passkey.synced ? <Badge variant="secondary">Synced</Badge> : null}
          </p>
          <p className="text-sm text-muted-foreground">
            Added {ADDED_ON.format(passkey.createdAt)} ·{" "}
            {passkey.lastUsedAt ? `Last used ${formatRelativeTime(passkey.lastUsedAt, now)}` : "Not used yet"}
          </p>
        </div>
        <ConfirmAction
          id={removeId}
          intent="remove-passkey"
          fields={{ passkeyId: passkey.id }}
          trigger="Remove"
          triggerVariant="outline"
          triggerSize="sm"
          title={`Remove "${passkey.label}"?`}
          confirm="Remove passkey"
          description={removalDescription(others)}
        >
          <Field
            id={`${removeId}-password`}
            name="password"
            label="Current Password"
            type="password"
            autoComplete="current-password"
            errors={removeErrors.password}
          />
          {others ? (
            <ConfirmWithAnotherPasskey passkeyId={passkey.id} errors={removeErrors[""] ?? undefined} />
          ) : (
            <FormError errors={removeErrors[""] ?? undefined} />
          )}
        </ConfirmAction>
      </div>
      <details open={renameReply ? true : undefined} className="group">
        <summary className="w-fit cursor-pointer text-sm font-medium text-primary hover:underline">
          Rename<span className="sr-only"> {passkey.label}</span>
        </summary>
        <Form method="post" action="/settings/security#passkeys" className="mt-3 flex flex-wrap items-end gap-3">
          <input type="hidden" name="passkeyId" value={passkey.id} />
          <div className="min-w-48 flex-1">
            <Field
              id={`${renameId}-name`}
              name="name"
              label="Name"
              defaultValue={passkey.name ?? passkey.label}
              maxLength={PASSKEY_NAME_MAX_LENGTH}
              errors={renameErrors.name}
            />
          </div>
          <SubmitButton intent="rename-passkey" variant="outline" pendingText="Saving...">
            Save name
          </SubmitButton>
        </Form>
      </details>
    </li>
  );
}

/**
 * The password (and an optional name), then the browser's own dialog. Without JavaScript the
 * password step still answers, and the second step says what it needs.
 */
function AddPasskey() {
  const reply = useFormReply("passkey-options");
  const answer = useActionData<OptionsReply | undefined>();
  const options = answer?.formId === "passkey-options" && "passkeyOptions" in answer ? answer : null;
  const errors = reply?.result?.error ?? {};
  return (
    <div className="grid gap-4 border-t pt-6">
      <h3 className="font-semibold">Add a passkey</h3>
      {options ? (
        <CreatePasskey options={options} />
      ) : (
        <Form method="post" action="/settings/security#passkeys" className="grid gap-4">
          <FormError errors={errors[""] ?? undefined} />
          <Field
            id="passkey-password"
            name="password"
            label="Current Password"
            type="password"
            autoComplete="current-password"
            errors={errors.password}
          />
          <Field
            id="passkey-name"
            name="name"
            label="Name (optional)"
            placeholder="Work laptop"
            maxLength={PASSKEY_NAME_MAX_LENGTH}
            required={false}
            errors={errors.name}
          />
          <div>
            <SubmitButton intent="passkey-options" pendingText="Checking...">
              Continue
            </SubmitButton>
          </div>
        </Form>
      )}
    </div>
  );
}

function CreatePasskey({ options }: { options: OptionsReply }) {
  const hydrated = useHydrated();
  const submit = useSubmit();
  const [failure, setFailure] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  if (hydrated && !passkeysSupported()) {
    return <p className="text-sm">This browser cannot create passkeys. Try another browser or device.</p>;
  }
  const create = async () => {
    setFailure(null);
    setCreating(true);
    try {
      const response = await createPasskey(options.passkeyOptions);
      submit(
        { intent: "add-passkey", response, name: options.name },
        { method: "post", action: "/settings/security#passkeys", preventScrollReset: true },
      );
    } catch (error) {
      setFailure(ceremonyFailure(error, "add"));
      setCreating(false);
    }
  };
  return (
    <div className="grid gap-3">
      <p className="text-sm">
        Your browser will now ask where to keep the passkey (this device, a phone, or your password manager) and to
        confirm with your fingerprint, face, screen lock or PIN.
      </p>
      <FormError errors={failure ? [failure] : undefined} />
      {hydrated ? (
        <div>
          <Button type="button" onClick={create} disabled={creating}>
            {creating ? "Creating..." : "Create passkey"}
          </Button>
        </div>
      ) : (
        // Until the forms hydrate (at once: the page asks for them) nothing, and without scripts this.
        <p className="hidden text-sm text-muted-foreground noscript:block">
          Creating a passkey needs JavaScript: turn it on in this browser, then try again.
        </p>
      )}
    </div>
  );
}
