import type { ServiceContext } from "./context.server.ts";
import type Stripe from "stripe";
import { refuseUnlessOrganizationAdmin, requireOrganizationAdmin } from "#app/utils/authorization.server.ts";
import { loadMembershipTarget } from "#db/queries/memberships/authorization.ts";
import { findCustomerOfPayer, findMembershipOf } from "#db/queries/memberships/billing.ts";
import { MEMBER_SUBSCRIPTION, SUBSCRIPTION_PRODUCT } from "#app/utils/constants.ts";
import type { Toast } from "#app/utils/toast-message.ts";
import { requireMembershipForAdmin } from "./memberships.server.ts";
import { forbidden } from "#app/utils/denial.server.ts";
import { NotFound, Refusal } from "#app/utils/domain-errors.server.ts";
import {
  handleStripeEvent,
  localEvent,
  simulatedSubscription,
  type SubscriptionMetadata,
} from "./stripe-events.server.ts";
import { stripeClient } from "#app/utils/stripe.server.ts";

// Per-member subscriptions. Stripe (or, without a key, the local simulated checkout) takes the
// payment; the state in organization_members only ever changes through handleStripeEvent
// (stripe-events.server.ts), the one code path for verified webhooks and simulated ones alike.

export const SIMULATED_CHECKOUT_PATH = "/billing/simulated-checkout";
export const SIMULATED_PORTAL_PATH = "/billing/simulated-portal";
export const CHECKOUT_RETURN_PATH = "/billing/return";

const notConfigured = () =>
  new Refusal({
    title: "Error",
    description: "Payments are not configured yet. Please try again later.",
    variant: "destructive",
  });

/**
 * The member an admin may subscribe: only an admin of the organisation, only its approved
 * members. Anything else is forbidden, whoever asks and whatever the form said.
 */
export async function requireSubscribableMember(
  context: ServiceContext,
  adminId: string,
  { organizationId, memberUserId }: { organizationId: string; memberUserId: string },
) {
  // One read: the membership with the caller's role in its organisation.
  const membership = await loadMembershipTarget(
    context.db,
    { userId: memberUserId, organizationId },
    { actorId: adminId },
  );
  // Without a row the role is unknown: asked on its own, so a stranger is refused as one.
  if (!membership) await requireOrganizationAdmin(context, organizationId, { userId: adminId });
  else refuseUnlessOrganizationAdmin(context, organizationId, membership.actorRole, { userId: adminId });
  if (membership?.status !== "approved")
    throw forbidden(context, "not an approved member", { userId: adminId, organizationId, memberUserId });
  return membership;
}

/**
 * create-personal-subscription: a Checkout Session in subscription mode at the one member price,
 * tied to the organisation, the member and the paying admin through its metadata. Returns the
 * url to open (Stripe's, or the local simulated checkout's).
 */
export async function createPersonalSubscription(
  context: ServiceContext,
  adminId: string,
  input: { organizationId: string; memberUserId: string },
  origin: string,
) {
  const membership = await requireSubscribableMember(context, adminId, input);
  if (membership.subscriptionStatus === "active") {
    throw new Refusal({
      title: "Already subscribed",
      description: `${membership.memberName} already has an active subscription.`,
    });
  }
  const stripe = stripeClient(context.env);
  if (!stripe) {
    if (context.env.ENVIRONMENT === "production") throw notConfigured();
    return { url: `${origin}${SIMULATED_CHECKOUT_PATH}?${new URLSearchParams(input)}` };
  }
  const metadata: SubscriptionMetadata = { ...input, adminUserId: adminId };
  // Each admin bills to their own customer (decision 059): the one their earlier checkouts made,
  // never the one another admin's checkout left on this membership. Without one, Checkout makes it.
  const customer = await findCustomerOfPayer(context.db, { payerId: adminId });
  const session = await stripe.checkout.sessions.create({
    mode: "subscription",
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency: MEMBER_SUBSCRIPTION.currency.toLowerCase(),
          unit_amount: MEMBER_SUBSCRIPTION.unitAmount,
          recurring: { interval: MEMBER_SUBSCRIPTION.interval },
          product_data: {
            name: SUBSCRIPTION_PRODUCT,
            description: `${membership.memberName} at ${membership.organizationName}`,
          },
        },
      },
    ],
    ...(customer ? { customer } : {}),
    client_reference_id: membership.id,
    metadata,
    // Copied onto the subscription, so its own events find the member even before checkout's.
    subscription_data: { metadata },
    success_url: `${origin}${CHECKOUT_RETURN_PATH}?checkout=complete`,
    cancel_url: `${origin}${CHECKOUT_RETURN_PATH}?checkout=cancelled`,
  });
  if (!session.url) throw new Error("Stripe returned a Checkout Session without a url");
  return { url: session.url };
}

async function requireActiveSubscription(context: ServiceContext, adminId: string, membershipId: string) {
  const { organizationId, userId } = await requireMembershipForAdmin(context, adminId, membershipId);
  const membership = await findMembershipOf(context.db, { userId, organizationId });
  if (!membership || membership.subscriptionStatus !== "active") {
    throw new Refusal({
      title: "Not subscribed",
      description: "This member has no active subscription.",
      variant: "destructive",
    });
  }
  return membership;
}

/**
 * The portal shows the payer's Stripe customer: their payment methods, invoices and every
 * subscription they pay for. Only the admin who pays may open it; another admin of the same
 * organisation is refused (they may still cancel the member's subscription on the dashboard).
 */
function requirePayer(
  context: ServiceContext,
  adminId: string,
  membership: { id: string; organizationId: string; subscribedBy: string | null },
) {
  if (membership.subscribedBy !== adminId)
    throw forbidden(context, "not the payer of the subscription", {
      userId: adminId,
      organizationId: membership.organizationId,
      membershipId: membership.id,
    });
}

/** Manage: Stripe's customer portal for the member's subscription (or the simulated one), for its payer. */
export async function openCustomerPortal(
  context: ServiceContext,
  adminId: string,
  membershipId: string,
  origin: string,
) {
  const membership = await requireActiveSubscription(context, adminId, membershipId);
  requirePayer(context, adminId, membership);
  const stripe = stripeClient(context.env);
  if (!stripe) {
    if (context.env.ENVIRONMENT === "production") throw notConfigured();
    return { url: `${origin}${SIMULATED_PORTAL_PATH}?${new URLSearchParams({ membershipId })}` };
  }
  if (!membership.stripeCustomerId) throw notConfigured();
  const portal = await stripe.billingPortal.sessions.create({
    customer: membership.stripeCustomerId,
    return_url: `${origin}/dashboard`,
  });
  return { url: portal.url };
}

/**
 * Cancel: ends the subscription now. The state changes through the same event handling as a
 * webhook, so the later customer.subscription.deleted from Stripe finds nothing left to do.
 */
export async function cancelMemberSubscription(context: ServiceContext, adminId: string, membershipId: string) {
  const membership = await requireActiveSubscription(context, adminId, membershipId);
  const stripe = stripeClient(context.env);
  let subscription: Stripe.Subscription;
  if (stripe) {
    if (!membership.stripeSubscriptionId) throw notConfigured();
    subscription = await stripe.subscriptions.cancel(membership.stripeSubscriptionId);
  } else {
    if (context.env.ENVIRONMENT === "production") throw notConfigured();
    subscription = simulatedSubscription(membership, "canceled");
  }
  await handleStripeEvent(context, localEvent("customer.subscription.deleted", subscription));
  return {
    title: "Subscription cancelled",
    description: `${membership.memberName}'s subscription has ended.`,
  } satisfies Toast;
}

/** Subscribe, from the Team Members list: the membership names the organisation and the member. */
export async function subscribeMember(context: ServiceContext, adminId: string, membershipId: string, origin: string) {
  const membership = await requireMembershipForAdmin(context, adminId, membershipId);
  return createPersonalSubscription(
    context,
    adminId,
    { organizationId: membership.organizationId, memberUserId: membership.userId },
    origin,
  );
}

/** The membership and its subscription, for the admin who pays for it (the simulated portal shows it). */
export async function subscriptionOf(context: ServiceContext, adminId: string, membershipId: string) {
  const { organizationId, userId } = await requireMembershipForAdmin(context, adminId, membershipId);
  const membership = await findMembershipOf(context.db, { userId, organizationId });
  if (!membership) throw new NotFound("Membership not found");
  requirePayer(context, adminId, membership);
  return membership;
}
