import { sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import { membershipSubscriptionUpdate, type MembershipSubscriptionState } from "./memberships/billing.ts";
import { processedStripeEvents } from "../schema.ts";

// The Stripe events already applied. The subscription columns of a membership are read and
// written in memberships/billing.ts (findMembershipOf, findMembershipBySubscription,
// membershipSubscriptionUpdate); this module only ties an event to its membership update.

export type SubscriptionChange = MembershipSubscriptionState & { eventId: string; eventType: string };

/**
 * Applies one event's subscription state to a membership and records the event id, in one D1
 * transaction. The update runs only when the event is new (never processed) and not older than
 * the last one applied; at an equal time the ending wins, as Stripe sends it last. Returns
 * whether the event was new and whether it changed the row.
 */
export async function applySubscriptionChange(
  db: Db,
  { membershipId }: { membershipId: string | null },
  change: SubscriptionChange,
) {
  const record = db
    .insert(processedStripeEvents)
    .values({ id: change.eventId, type: change.eventType })
    .onConflictDoNothing()
    .returning({ id: processedStripeEvents.id });
  if (!membershipId) {
    const [recorded] = await db.batch([record]);
    return { isNew: recorded.length > 0, applied: false };
  }
  const [updated, recorded] = await db.batch([
    membershipSubscriptionUpdate(db, { membershipId }, change, {
      when: sql`not exists (select 1 from ${processedStripeEvents} where ${processedStripeEvents.id} = ${change.eventId})`,
    }),
    record,
  ]);
  return { isNew: recorded.length > 0, applied: updated.length > 0 };
}
