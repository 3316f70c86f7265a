// The billing columns of a membership: which Stripe subscription pays for it, the membership a
// subscription pays for, and applying a Stripe event's subscription state.
import { and, eq, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../client.ts";
import { organizationMembers, organizations, profiles } from "../../schema.ts";
import type { MemberKey } from "./keys.ts";

/** The Stripe subscription a membership pays through, if any. */
export async function findMembershipSubscription(db: Db, { membershipId }: { membershipId: string }) {
  const [row] = await db
    .select({
      subscriptionId: organizationMembers.stripeSubscriptionId,
      status: organizationMembers.subscriptionStatus,
    })
    .from(organizationMembers)
    .where(eq(organizationMembers.id, membershipId))
    .limit(1);
  return row ?? null;
}

const subscribedMembershipColumns = {
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

function selectSubscribedMembership(db: Db) {
  return db
    .select(subscribedMembershipColumns)
    .from(organizationMembers)
    .innerJoin(profiles, eq(profiles.id, organizationMembers.userId))
    .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId));
}

export type SubscribedMembership = NonNullable<Awaited<ReturnType<typeof findMembershipBySubscription>>>;

/** The membership a Stripe subscription pays for, with its billing columns and names. */
export async function findMembershipBySubscription(db: Db, { stripeSubscriptionId }: { stripeSubscriptionId: string }) {
  const [row] = await selectSubscribedMembership(db)
    .where(eq(organizationMembers.stripeSubscriptionId, stripeSubscriptionId))
    .limit(1);
  return row ?? null;
}

/** The person's membership of the organisation, with its billing columns and names. */
export async function findMembershipOf(db: Db, { userId, organizationId }: MemberKey) {
  const [row] = await selectSubscribedMembership(db)
    .where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.userId, userId)))
    .limit(1);
  return row ?? null;
}

/** A subscription state as one Stripe event carries it (absent ids keep the stored ones). */
export type MembershipSubscriptionState = {
  /** When Stripe created the event: the order in which changes apply. */
  eventAt: Date;
  status: "active" | "inactive";
  stripeSubscriptionId: string | null;
  stripeCustomerId: string | null;
  subscribedBy: string | null;
};

/**
 * Applies a subscription state to a membership, as a statement for the caller's batch (returning
 * the row when it changed). It writes only `when` holds and the state is not older than the last
 * one applied; at an equal time the ending wins, as Stripe sends it last.
 */
export function membershipSubscriptionUpdate(
  db: Db,
  { membershipId }: { membershipId: string },
  state: MembershipSubscriptionState,
  { when }: { when: SQL },
) {
  const eventAt = state.eventAt.getTime();
  return db
    .update(organizationMembers)
    .set({
      subscriptionStatus: state.status,
      subscriptionEventAt: state.eventAt,
      stripeSubscriptionId: state.stripeSubscriptionId ?? sql`${organizationMembers.stripeSubscriptionId}`,
      stripeCustomerId: state.stripeCustomerId ?? sql`${organizationMembers.stripeCustomerId}`,
      subscribedBy: state.subscribedBy ?? sql`${organizationMembers.subscribedBy}`,
    })
    .where(
      and(
        eq(organizationMembers.id, membershipId),
        or(
          isNull(organizationMembers.subscriptionEventAt),
          lt(organizationMembers.subscriptionEventAt, state.eventAt),
          state.status === "inactive" ? sql`${organizationMembers.subscriptionEventAt} = ${eventAt}` : sql`0`,
        ),
        when,
      ),
    )
    .returning({ id: organizationMembers.id });
}
