import type Stripe from "stripe";
import { MEMBER_PRICE_LABEL, MEMBER_SUBSCRIPTION } from "#app/utils/constants.ts";
import {
  findMembershipBySubscription,
  findMembershipOf,
  type SubscribedMembership,
} from "#db/queries/memberships/billing.ts";
import { applySubscriptionChange, type SubscriptionChange } from "#db/queries/subscriptions.ts";
import type { ServiceContext } from "./context.server.ts";
import { notify } from "./notifications.server.ts";

// A subscription's state changes here only: verified Stripe webhooks and the local simulated
// checkout's events alike go through handleStripeEvent (decision 008).

/** What a checkout puts on the session and its subscription, so their events find the member. */
export type SubscriptionMetadata = { organizationId: string; memberUserId: string; adminUserId: string };

// ---- Events: verified webhooks and the simulated checkout both arrive here ----

type Located = {
  membership: SubscribedMembership | null;
  change: Omit<SubscriptionChange, "eventId" | "eventType" | "eventAt">;
};

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === "string" ? value : (value?.id ?? null);

function metadataOf(metadata: Stripe.Metadata | null | undefined): Partial<SubscriptionMetadata> {
  return {
    organizationId: metadata?.organizationId,
    memberUserId: metadata?.memberUserId,
    adminUserId: metadata?.adminUserId,
  };
}

/** The membership an event is about: by subscription id, else by the metadata we put on it. */
async function locate(
  context: ServiceContext,
  subscriptionId: string | null,
  metadata: Partial<SubscriptionMetadata>,
): Promise<SubscribedMembership | null> {
  const bySubscription = subscriptionId
    ? await findMembershipBySubscription(context.db, { stripeSubscriptionId: subscriptionId })
    : null;
  if (bySubscription) return bySubscription;
  if (!metadata.organizationId || !metadata.memberUserId) return null;
  const byMember = await findMembershipOf(context.db, {
    userId: metadata.memberUserId,
    organizationId: metadata.organizationId,
  });
  return byMember?.status === "approved" ? byMember : null;
}

/** What an event says about a subscription's state, derived from the event's own object. */
async function interpret(context: ServiceContext, event: Stripe.Event): Promise<Located | null> {
  switch (event.type) {
    case "checkout.session.completed": {
      const session = event.data.object;
      if (session.mode !== "subscription" || session.payment_status === "unpaid") return null;
      const metadata = metadataOf(session.metadata);
      const subscriptionId = idOf(session.subscription);
      return {
        membership: await locate(context, subscriptionId, metadata),
        change: {
          status: "active",
          stripeSubscriptionId: subscriptionId,
          stripeCustomerId: idOf(session.customer),
          subscribedBy: metadata.adminUserId ?? null,
        },
      };
    }
    case "customer.subscription.updated":
    case "customer.subscription.deleted": {
      const subscription = event.data.object;
      const live =
        event.type === "customer.subscription.updated" && ["active", "trialing"].includes(subscription.status);
      const metadata = metadataOf(subscription.metadata);
      return {
        membership: await locate(context, subscription.id, metadata),
        change: {
          status: live ? "active" : "inactive",
          stripeSubscriptionId: subscription.id,
          stripeCustomerId: idOf(subscription.customer),
          subscribedBy: metadata.adminUserId ?? null,
        },
      };
    }
    case "invoice.payment_failed": {
      const details = event.data.object.parent?.subscription_details;
      const subscriptionId = idOf(details?.subscription);
      if (!subscriptionId) return null;
      const metadata = metadataOf(details?.metadata);
      return {
        membership: await locate(context, subscriptionId, metadata),
        change: {
          status: "inactive",
          stripeSubscriptionId: subscriptionId,
          stripeCustomerId: idOf(event.data.object.customer),
          subscribedBy: null,
        },
      };
    }
    default:
      return null;
  }
}

export type EventOutcome = "applied" | "unchanged" | "duplicate" | "unknown-member" | "ignored";

/**
 * Applies one Stripe event at most once, in the order Stripe created them (whatever order they
 * arrive in), and tells the paying admin when a subscription starts or ends.
 */
export async function handleStripeEvent(context: ServiceContext, event: Stripe.Event): Promise<EventOutcome> {
  const located = await interpret(context, event);
  if (!located) return "ignored";
  const change: SubscriptionChange = {
    ...located.change,
    eventId: event.id,
    eventType: event.type,
    eventAt: new Date(Math.round(event.created * 1000)),
  };
  const { membership } = located;
  const result = await applySubscriptionChange(context.db, { membershipId: membership?.id ?? null }, change);
  if (!result.isNew) return "duplicate";
  if (!membership) {
    console.warn(
      JSON.stringify({
        level: "warn",
        message: "stripe event for an unknown member",
        eventId: event.id,
        type: event.type,
      }),
    );
    return "unknown-member";
  }
  if (!result.applied) return "unchanged";
  const payer = change.subscribedBy ?? membership.subscribedBy;
  if (payer && membership.subscriptionStatus !== change.status) {
    await notify(context, [
      change.status === "active"
        ? {
            userId: payer,
            title: "Subscription active",
            message: `${membership.memberName} is subscribed at ${membership.organizationName} (${MEMBER_PRICE_LABEL} per month).`,
            type: "success",
          }
        : {
            userId: payer,
            title: event.type === "invoice.payment_failed" ? "Subscription payment failed" : "Subscription ended",
            message:
              event.type === "invoice.payment_failed"
                ? `The payment for ${membership.memberName}'s subscription at ${membership.organizationName} failed; it is inactive until paid.`
                : `${membership.memberName}'s subscription at ${membership.organizationName} has ended.`,
            type: "warning",
          },
    ]);
  }
  return "applied";
}

// ---- The local stand-in: events shaped as Stripe's, made on this server ----

/** An event this server made itself; created in fractional seconds, so quick steps stay ordered. */
export function localEvent<T extends "checkout.session.completed" | "customer.subscription.deleted">(
  type: T,
  object: T extends "checkout.session.completed" ? Stripe.Checkout.Session : Stripe.Subscription,
) {
  return {
    id: `evt_local_${crypto.randomUUID()}`,
    object: "event",
    type,
    created: Date.now() / 1000,
    data: { object },
  } as unknown as Stripe.Event;
}

export function simulatedCheckoutSession(metadata: SubscriptionMetadata) {
  return {
    id: `cs_local_${crypto.randomUUID()}`,
    object: "checkout.session",
    mode: "subscription",
    status: "complete",
    payment_status: "paid",
    currency: MEMBER_SUBSCRIPTION.currency.toLowerCase(),
    amount_total: MEMBER_SUBSCRIPTION.unitAmount,
    customer: `cus_local_${crypto.randomUUID()}`,
    subscription: `sub_local_${crypto.randomUUID()}`,
    metadata,
  } as unknown as Stripe.Checkout.Session;
}

export function simulatedSubscription(membership: SubscribedMembership, status: Stripe.Subscription.Status) {
  return {
    id: membership.stripeSubscriptionId ?? `sub_local_${crypto.randomUUID()}`,
    object: "subscription",
    status,
    customer: membership.stripeCustomerId,
    metadata: { organizationId: membership.organizationId, memberUserId: membership.userId },
  } as unknown as Stripe.Subscription;
}
