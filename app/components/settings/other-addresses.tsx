import { Form } from "@remix-run/react";
import { ConfirmAction } from "#app/components/confirm-action.tsx";
import { FormError } from "#app/components/form-messages.tsx";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { formatShortDate } from "#app/utils/dates.ts";
import { useFormReply } from "#app/utils/form-reply.ts";
import { formatRelativeTime } from "#app/utils/relative-time.ts";
import { Field } from "./field.tsx";

// Settings' 'Other e-mail addresses' (issue 32, decision 068): add one, confirm it by the link
// mailed to it, remove it. Confirmed addresses only let imported credentials be recognised as the
// person's; signing in stays with the account's address. Plain forms: all of it works without
// JavaScript.

/** One of the person's other addresses, as Settings' loader reads it (times in ms). */
export type OtherAddressRow = {
  id: string;
  address: string;
  sentAt: number;
  expiresAt: number;
  confirmedAt: number | null;
};

export type OtherAddressesState = {
  items: OtherAddressRow[];
  max: number;
  /** The server's clock when the page was read: times read the same before and after hydration. */
  now: number;
};

export function OtherAddresses({ state }: { state: OtherAddressesState }) {
  return (
    <Card id="other-addresses">
      <CardHeader>
        <CardTitle as="h2">Other e-mail addresses</CardTitle>
        <CardDescription>
          Add the other addresses your badges and credentials were issued to (a university’s, a former employer’s) and
          confirm each with the link we mail to it. Confirmed addresses are only used to recognise credentials you
          import as yours: you keep signing in with your account’s address, and nobody else sees them.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {state.items.length > 0 ? (
          <ul className="grid divide-y rounded-md border" aria-label="Your other e-mail addresses">
            {state.items.map((item) => (
              <AddressItem key={item.id} item={item} now={state.now} />
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">No other addresses yet.</p>
        )}
        {state.items.length < state.max ? (
          // A new form after each address added or link sent: the field empties once it worked,
          // and keeps what was typed when it was refused.
          <AddAddress key={state.items.map((item) => `${item.id}:${item.sentAt}`).join()} />
        ) : (
          <p className="text-sm text-muted-foreground">
            You have {state.max} other addresses, the most one account can hold. Remove one to add another.
          </p>
        )}
      </CardContent>
    </Card>
  );
}

function AddressItem({ item, now }: { item: OtherAddressRow; now: number }) {
  const removeId = `remove-other-address-${item.id}`;
  const resendId = `resend-other-address-${item.id}`;
  const resendErrors = useFormReply(resendId)?.result?.error?.[""] ?? undefined;
  const expired = !item.confirmedAt && item.expiresAt <= now;
  const statusId = `${item.id}-status`;
  return (
    <li className="grid gap-3 p-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="grid min-w-0 gap-1">
          <p className="flex flex-wrap items-center gap-2 font-medium">
            <span className="break-all">{item.address}</span>
            {item.confirmedAt ? (
              <Badge variant="success">Confirmed</Badge>
            ) : expired ? (
              <Badge variant="destructive">Link expired</Badge>
            ) : (
              <Badge variant="outline">Waiting for confirmation</Badge>
            )}
          </p>
          <p id={statusId} className="text-sm text-muted-foreground">
            {item.confirmedAt
              ? `Confirmed ${formatShortDate(item.confirmedAt)}`
              : expired
                ? "The link has expired. Send a new one to confirm this address."
                : `Link sent ${sentWhen(item.sentAt, now)}. Open it from your inbox while signed in here.`}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {item.confirmedAt ? null : (
            <Form method="post" action="/settings/addresses">
              <input type="hidden" name="addressId" value={item.id} />
              <SubmitButton
                intent="resend-other-address"
                variant="outline"
                size="sm"
                pendingText="Sending..."
                aria-label={`Resend link to ${item.address}`}
                aria-describedby={statusId}
              >
                Resend link
              </SubmitButton>
            </Form>
          )}
          <ConfirmAction
            id={removeId}
            intent="remove-other-address"
            fields={{ addressId: item.id }}
            trigger={
              <>
                Remove<span className="sr-only"> {item.address}</span>
              </>
            }
            triggerVariant="outline"
            triggerSize="sm"
            title={`Remove ${item.address}?`}
            confirm="Remove address"
            description="Credentials issued to this address will no longer be recognised as yours when you import them. You can add it again later."
          />
        </div>
      </div>
      <FormError errors={resendErrors} />
    </li>
  );
}

/** "just now", "5m ago", "3h ago" (an unexpired link was sent within its 24 hours). */
const sentWhen = (sentAt: number, now: number) => formatRelativeTime(sentAt, now).replace(/^Just now$/, "just now");

function AddAddress() {
  const reply = useFormReply("add-other-address");
  const errors = reply?.result?.error ?? {};
  const typed = reply?.result?.initialValue?.address;
  return (
    <Form method="post" action="/settings/addresses" className="grid gap-4 border-t pt-6">
      <h3 className="font-semibold">Add an address</h3>
      <FormError errors={errors[""] ?? undefined} />
      <Field
        id="other-address"
        name="address"
        label="Email address"
        type="email"
        autoComplete="email"
        placeholder="you@university.example"
        maxLength={255}
        defaultValue={typeof typed === "string" ? typed : undefined}
        errors={errors.address}
      />
      <div>
        <SubmitButton intent="add-other-address" pendingText="Sending link...">
          Add address
        </SubmitButton>
      </div>
    </Form>
  );
}
