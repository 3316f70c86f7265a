import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { ConfirmAction } from "#app/components/confirm-action.tsx";
import { showToast } from "#app/components/toaster.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { MEMBER_PRICE_LABEL } from "#app/utils/constants.ts";

/** How long after checkout opens the members list is read again (spec: 1 second). */
export const SUBSCRIPTION_REFRESH_MS = 1000;

/**
 * After checkout or the portal opens in a new tab: a toast, the list read again a second later,
 * and once more when the admin comes back to this tab (by then the payment may be done).
 */
function useRefreshAfterOpening() {
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  const cleanup = useRef<() => void>(() => {});
  useEffect(() => () => cleanup.current(), []);
  return (toast: string | null) => {
    if (toast) showToast({ title: toast });
    cleanup.current();
    const timer = window.setTimeout(() => revalidate.current(), SUBSCRIPTION_REFRESH_MS);
    const onReturn = () => {
      if (document.visibilityState === "visible") revalidate.current();
    };
    window.addEventListener("focus", onReturn);
    document.addEventListener("visibilitychange", onReturn);
    cleanup.current = () => {
      window.clearTimeout(timer);
      window.removeEventListener("focus", onReturn);
      document.removeEventListener("visibilitychange", onReturn);
    };
  };
}

/**
 * The Team Members subscription control. Subscribe and Manage are plain forms posted into a new
 * tab (target=_blank): the tab opens from the click itself, so no popup blocker interferes, and
 * the same form works without JavaScript. Cancel stays in this tab, behind a confirmation.
 */
export function SubscriptionControl({
  member,
}: {
  member: { id: string; fullName: string; subscriptionStatus: "active" | "inactive" };
}) {
  const refresh = useRefreshAfterOpening();
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
      {opening("manage-subscription", "Manage", null, `subscription of ${member.fullName}`)}
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
