import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { ConfirmAction } from "#app/components/confirm-action.tsx";
import { showToast } from "#app/utils/toast.ts";
import { Button } from "#app/components/ui/button.tsx";
import { MEMBER_PRICE_LABEL } from "#app/utils/constants.ts";

/** How long after checkout opens the members list is read again (spec: 1 second). */
export const SUBSCRIPTION_REFRESH_MS = 1000;
/** Then, while this tab is visible, how often it is read again until the member's status changes. */
const SUBSCRIPTION_POLL_MS = 3000;
/** A checkout left open longer than this is no longer waited for (returning to the tab still reads). */
const SUBSCRIPTION_POLL_LIMIT_MS = 10 * 60 * 1000;

/**
 * After checkout or the portal opens in a new tab: a toast, the list read again a second later,
 * then every few seconds while this tab is visible, and at once when the admin comes back to it,
 * until the member's status changes. Returning alone is not enough: a browser that shows both
 * tabs side by side (or a headless one) never fires focus or visibilitychange here.
 */
function useRefreshAfterOpening(status: string) {
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  const stop = useRef<() => void>(() => {});
  useEffect(() => () => stop.current(), []);
  // The change we were waiting for has arrived.
  useEffect(() => stop.current(), [status]);
  return (toast: string | null) => {
    if (toast) showToast({ title: toast });
    stop.current();
    const openedAt = Date.now();
    const readIfVisible = () => {
      if (document.visibilityState === "visible") revalidate.current();
    };
    let poll: number | undefined;
    const first = window.setTimeout(() => {
      revalidate.current();
      poll = window.setInterval(() => {
        if (Date.now() - openedAt > SUBSCRIPTION_POLL_LIMIT_MS) window.clearInterval(poll);
        else readIfVisible();
      }, SUBSCRIPTION_POLL_MS);
    }, SUBSCRIPTION_REFRESH_MS);
    window.addEventListener("focus", readIfVisible);
    document.addEventListener("visibilitychange", readIfVisible);
    stop.current = () => {
      window.clearTimeout(first);
      window.clearInterval(poll);
      window.removeEventListener("focus", readIfVisible);
      document.removeEventListener("visibilitychange", readIfVisible);
    };
  };
}

/**
 * The Team Members subscription control. Subscribe and Manage are plain forms posted into a new
 * tab (target=_blank): the tab opens from the click itself, so no popup blocker interferes, and
 * the same form works without JavaScript. Cancel stays in this tab, behind a confirmation. Manage
 * is offered only to the admin who pays (decision 059).
 */
export function SubscriptionControl({
  member,
}: {
  member: { id: string; fullName: string; subscriptionStatus: "active" | "inactive"; paidByViewer: boolean };
}) {
  const refresh = useRefreshAfterOpening(member.subscriptionStatus);
  const opening = (intent: string, label: string, toast: string | null, srLabel: string) => (
    <form method="post" action="/dashboard" target="_blank" onSubmit={() => refresh(toast)}>
      <input type="hidden" name="membershipId" value={member.id} />
      <Button type="submit" name="intent" value={intent} size="sm" variant="outline">
        {label}
        <span className="sr-only"> {srLabel}</span>
      </Button>
    </form>
  );

  if (member.subscriptionStatus !== "active") {
    return opening(
      "subscribe",
      "Subscribe",
      "Opening checkout",
      `${member.fullName} (${MEMBER_PRICE_LABEL} per month)`,
    );
  }
  return (
    <>
      {/* The portal is the payer's own Stripe customer: another admin may cancel, not manage. */}
      {member.paidByViewer
        ? opening("manage-subscription", "Manage", null, `subscription of ${member.fullName}`)
        : null}
      <ConfirmAction
        id={`cancel-subscription-${member.id}`}
        intent="cancel-subscription"
        fields={{ membershipId: member.id }}
        trigger={
          <>
            Cancel<span className="sr-only"> subscription of {member.fullName}</span>
          </>
        }
        triggerSize="sm"
        triggerVariant="outline"
        title={`Cancel ${member.fullName}'s subscription?`}
        description={`The subscription ends now and is no longer charged. You can subscribe ${member.fullName} again at any time.`}
        confirm="Cancel Subscription"
      />
    </>
  );
}
