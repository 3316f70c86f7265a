import { redirect, type AppLoadContext } from "@remix-run/cloudflare";
import { redirectWithToast } from "#app/utils/cookies.server.ts";
import { requireMembershipForAdmin } from "./memberships.server.ts";
import { cancelMemberSubscription, createPersonalSubscription, openCustomerPortal } from "./subscriptions.server.ts";

/**
 * The Team Members subscription control's intents, for the dashboard action. The form names a
 * membership; its organisation comes from that row. Subscribe and Manage are posted into a new
 * tab, which this sends on to checkout or the portal.
 */
export async function subscriptionAction(
  context: AppLoadContext,
  request: Request,
  adminId: string,
  {
    intent,
    membershipId,
  }: { intent: "subscribe" | "manage-subscription" | "cancel-subscription"; membershipId: string },
) {
  const origin = context.env.APP_URL ?? new URL(request.url).origin;
  // Refusals (ToastError) and failures are answered by the dashboard action.
  if (intent === "cancel-subscription") {
    return redirectWithToast(
      context.env,
      request,
      "/dashboard",
      await cancelMemberSubscription(context, adminId, membershipId),
    );
  }
  if (intent === "manage-subscription")
    return redirect((await openCustomerPortal(context, adminId, membershipId, origin)).url);
  const membership = await requireMembershipForAdmin(context, adminId, membershipId);
  const { url } = await createPersonalSubscription(
    context,
    adminId,
    { organizationId: membership.organizationId, memberUserId: membership.userId },
    origin,
  );
  return redirect(url);
}
