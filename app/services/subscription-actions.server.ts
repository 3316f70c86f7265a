import { redirect, type AppLoadContext } from "@remix-run/cloudflare";
import { z } from "zod";
import { redirectWithToast } from "#app/utils/cookies.server.ts";
import { requireMembershipForAdmin } from "./memberships.server.ts";
import { cancelMemberSubscription, createPersonalSubscription, openCustomerPortal } from "./subscriptions.server.ts";

const subscriptionIntent = z.object({
  intent: z.enum(["subscribe", "manage-subscription", "cancel-subscription"]),
  membershipId: z.uuid(),
});

/**
 * The Team Members subscription control's intents, for the dashboard action; null when the form
 * is not one of them. The form names a membership; its organisation comes from that row.
 * Subscribe and Manage are posted into a new tab, which this sends on to checkout or the portal.
 */
export async function subscriptionAction(
  context: AppLoadContext,
  request: Request,
  adminId: string,
  formData: FormData,
) {
  const parsed = subscriptionIntent.safeParse(Object.fromEntries(formData));
  if (!parsed.success) return null;
  const { intent, membershipId } = parsed.data;
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
