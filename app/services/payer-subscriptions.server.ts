import type { Db } from "#db/client.ts";
import {
  findSubscriptionsOfFormerAdmins,
  subscriptionsPaidByQuery,
  type PaidSubscription,
} from "#db/queries/memberships/billing.ts";
import { applySubscriptionChange } from "#db/queries/subscriptions.ts";
import { errorSummary, log } from "#app/utils/log.server.ts";
import { cancelStripeSubscription, stripeClient, type StripeSettings } from "#app/utils/stripe.server.ts";

// Billing follows the person (decision 059): a subscription is paid by the admin whose checkout
// started it, and only while that person runs the organisation. When they stop (leaving, removal,
// archive, purge) every subscription they pay for there ends at Stripe and is recorded as ended.

/** What ending subscriptions needs: the database, the Stripe settings and, in a request, its id. */
export type BillingWork = { db: Db; env: StripeSettings & { ENVIRONMENT?: string }; requestId?: string };

/** How many a request ends before it answers; any more are left to the daily sweep. */
const ENDED_PER_REQUEST = 25;
/** How many the daily sweep ends in one run. */
const ENDED_PER_SWEEP = 200;
/** Stripe calls in flight at once. */
const CONCURRENCY = 5;

export type EndedSubscriptions = { ended: number; failed: number; more: boolean };

type PayerScope = { payerId: string; organizationId?: string };

/**
 * The subscriptions `payerId` pays for in `organizationId` (or, without one, anywhere), as a
 * statement for the batch that makes them stop paying; its rows go to endPaidSubscriptions.
 */
export function paidSubscriptionsRead(work: Pick<BillingWork, "db">, scope: PayerScope) {
  return subscriptionsPaidByQuery(work.db, { ...scope, limit: ENDED_PER_REQUEST });
}

/**
 * Ends subscriptions read by paidSubscriptionsRead, after the change that made them someone
 * else's to pay has been written: a Stripe failure is logged and leaves the subscription live
 * with a payer who no longer runs its organisation, which is what the daily sweep looks for, so
 * it is tried again rather than lost.
 */
export async function endPaidSubscriptions(
  work: BillingWork,
  rows: PaidSubscription[],
  reason: "left" | "removed" | "archived" | "purged",
): Promise<EndedSubscriptions> {
  return { ...(await endSubscriptions(work, rows, reason)), more: rows.length === ENDED_PER_REQUEST };
}

/** The same with a read of its own (archive). */
export async function endSubscriptionsPaidBy(
  work: BillingWork,
  scope: PayerScope,
  reason: "archived",
): Promise<EndedSubscriptions> {
  let rows: PaidSubscription[];
  try {
    rows = await paidSubscriptionsRead(work, scope);
  } catch (error) {
    // The change that caused this is written already; the sweep finds these rows as well.
    log("error", "paid subscriptions not read", { requestId: work.requestId, reason, error: errorSummary(error) });
    return { ended: 0, failed: 0, more: true };
  }
  return endPaidSubscriptions(work, rows, reason);
}

/**
 * Every subscription the person pays for ends, or this throws: for a purge, which forgets who paid
 * (subscribed_by is set null) and so must not go ahead while any is live. Bounded; what does not
 * fit is left, with the throw, for the next try.
 */
export async function endEverySubscriptionPaidBy(work: BillingWork, payerId: string) {
  for (let round = 0; round < 10; round++) {
    const rows = await paidSubscriptionsRead(work, { payerId });
    const { failed, more } = await endPaidSubscriptions(work, rows, "purged");
    if (failed > 0) break;
    if (!more) return;
  }
  throw new Error("subscriptions the person pays for are not all cancelled yet");
}

/** The daily sweep: live subscriptions whose payer no longer administers the organisation. */
export async function endSubscriptionsOfFormerAdmins(work: BillingWork): Promise<EndedSubscriptions> {
  const rows = await findSubscriptionsOfFormerAdmins(work.db, { limit: ENDED_PER_SWEEP });
  return { ...(await endSubscriptions(work, rows, "sweep")), more: rows.length === ENDED_PER_SWEEP };
}

async function endSubscriptions(work: BillingWork, rows: PaidSubscription[], reason: string) {
  let ended = 0;
  let failed = 0;
  if (rows.length === 0) return { ended, failed };
  // Without Stripe, production has nothing it could cancel: the rows stay as they are. Elsewhere
  // the simulated checkout made them, and they end here as a cancel through Stripe would.
  if (!stripeClient(work.env) && work.env.ENVIRONMENT === "production") {
    log("warn", "no Stripe key: live subscriptions left as they are", { requestId: work.requestId, reason });
    return { ended, failed };
  }
  for (let start = 0; start < rows.length; start += CONCURRENCY) {
    await Promise.all(
      rows.slice(start, start + CONCURRENCY).map(async (row) => {
        try {
          await endSubscription(work, row);
          ended++;
        } catch (error) {
          failed++;
          log("error", "stripe cancel failed", {
            requestId: work.requestId,
            reason,
            membershipId: row.membershipId,
            payerId: row.payerId,
            retry: reason === "purged" ? "next purge" : "daily sweep",
            error: errorSummary(error),
          });
        }
      }),
    );
  }
  return { ended, failed };
}

/**
 * Cancels at Stripe, then records the end as a local customer.subscription.deleted event would:
 * the later one from Stripe is no newer and finds nothing left to do.
 */
async function endSubscription(work: BillingWork, row: PaidSubscription) {
  await cancelStripeSubscription(work, { subscriptionId: row.subscriptionId, subscriptionStatus: "active" });
  await applySubscriptionChange(
    work.db,
    { membershipId: row.membershipId },
    {
      status: "inactive",
      stripeSubscriptionId: row.subscriptionId,
      stripeCustomerId: null,
      subscribedBy: null,
      eventId: `evt_local_${crypto.randomUUID()}`,
      eventType: "customer.subscription.deleted",
      eventAt: new Date(),
    },
  );
}
