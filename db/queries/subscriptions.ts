import { and, eq, lt, or, sql, isNull } from "drizzle-orm";
import type { Db } from "../client.ts";
import type { MemberKey } from "./memberships.ts";
import { organizationMembers, organizations, processedStripeEvents, profiles } from "../schema.ts";

const membershipColumns = {
  id: organizationMembers.id,
  userId: organizationMembers.userId,
  organizationId: organizationMembers.organizationId,
  status: organizationMembers.status,
  subscriptionStatus: organizationMembers.subscriptionStatus,
  stripeCustomerId: organizationMembers.stripeCustomerId,
  stripeSubscriptionId: organizationMembers.stripeSubscriptionId,
  subscribedBy: organizationMembers.subscribedBy,
  memberName: profiles.fullName,
  organizationName: organizations.name,
};

function selectMembership(db: Db) {
  return db
    .select(membershipColumns)
    .from(organizationMembers)
    .innerJoin(profiles, eq(profiles.id, organizationMembers.userId))
    .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId));
}

export type SubscribedMembership = NonNullable<Awaited<ReturnType<typeof findMembershipBySubscription>>>;

export async function findMembershipBySubscription(db: Db, stripeSubscriptionId: string) {
  const [row] = await selectMembership(db)
    .where(eq(organizationMembers.stripeSubscriptionId, stripeSubscriptionId))
    .limit(1);
  return row ?? null;
}

export async function findMembershipOf(db: Db, { userId, organizationId }: MemberKey) {
  const [row] = await selectMembership(db)
    .where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.userId, userId)))
    .limit(1);
  return row ?? null;
}

export type SubscriptionChange = {
  eventId: string;
  eventType: string;
  /** When Stripe created the event: the order in which changes apply. */
  eventAt: Date;
  status: "active" | "inactive";
  stripeSubscriptionId: string | null;
  stripeCustomerId: string | null;
  subscribedBy: string | null;
};

/**
 * Applies one event's subscription state to a membership and records the event id, in one D1
 * transaction. The update runs only when the event is new (never processed) and not older than
 * the last one applied; at an equal time the ending wins, as Stripe sends it last. Returns
 * whether the event was new and whether it changed the row.
 */
export async function applySubscriptionChange(db: Db, membershipId: string | null, change: SubscriptionChange) {
  const record = db
    .insert(processedStripeEvents)
    .values({ id: change.eventId, type: change.eventType })
    .onConflictDoNothing()
    .returning({ id: processedStripeEvents.id });
  if (!membershipId) {
    const [recorded] = await db.batch([record]);
    return { isNew: recorded.length > 0, applied: false };
  }
  const eventAt = change.eventAt.getTime();
  const [updated, recorded] = await db.batch([
    db
      .update(organizationMembers)
      .set({
        subscriptionStatus: change.status,
        subscriptionEventAt: change.eventAt,
        stripeSubscriptionId: change.stripeSubscriptionId ?? sql`${organizationMembers.stripeSubscriptionId}`,
        stripeCustomerId: change.stripeCustomerId ?? sql`${organizationMembers.stripeCustomerId}`,
        subscribedBy: change.subscribedBy ?? sql`${organizationMembers.subscribedBy}`,
      })
      .where(
        and(
          eq(organizationMembers.id, membershipId),
          or(
            isNull(organizationMembers.subscriptionEventAt),
            lt(organizationMembers.subscriptionEventAt, change.eventAt),
            change.status === "inactive" ? sql`${organizationMembers.subscriptionEventAt} = ${eventAt}` : sql`0`,
          ),
          sql`not exists (select 1 from ${processedStripeEvents} where ${processedStripeEvents.id} = ${change.eventId})`,
        ),
      )
      .returning({ id: organizationMembers.id }),
    record,
  ]);
  return { isNew: recorded.length > 0, applied: updated.length > 0 };
}
