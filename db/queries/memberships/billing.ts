// The billing columns of a membership: which Stripe subscription pays for it, the membership a
// subscription pays for, what a person pays for, and applying a Stripe event's subscription state.
import { and, desc, eq, isNotNull, isNull, lt, notExists, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../client.ts";
import { organizationMembers, organizationRoles, organizations, profiles } from "../../schema.ts";
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

/** A live subscription and who pays for it: what ending it needs. */
export type PaidSubscription = {
  membershipId: string;
  subscriptionId: string;
  organizationId: string;
  payerId: string | null;
};

const paidSubscriptionColumns = {
  membershipId: organizationMembers.id,
  subscriptionId: sql<string>`${organizationMembers.stripeSubscriptionId}`,
  organizationId: organizationMembers.organizationId,
  payerId: organizationMembers.subscribedBy,
};
const live = and(
  eq(organizationMembers.subscriptionStatus, "active"),
  isNotNull(organizationMembers.stripeSubscriptionId),
);

/**
 * The live subscriptions a person pays for, in one organisation or (without one) anywhere, at
 * most `limit` of them, read through organization_members_payer_idx: a statement, so that the
 * batch making someone stop paying can read them in the same round trip.
 */
export function subscriptionsPaidByQuery(
  db: Db,
  { payerId, organizationId, limit }: { payerId: string; organizationId?: string; limit: number },
) {
  return db
    .select(paidSubscriptionColumns)
    .from(organizationMembers)
    .where(
      and(
        eq(organizationMembers.subscribedBy, payerId),
        organizationId ? eq(organizationMembers.organizationId, organizationId) : undefined,
        live,
      ),
    )
    .limit(limit);
}

/**
 * Live subscriptions whose payer no longer administers the organisation (left, removed,
 * archived, or the cancel that should have followed failed): what the daily sweep ends. Only rows
 * with a payer are read (a range of organization_members_payer_idx).
 */
export function findSubscriptionsOfFormerAdmins(db: Db, { limit }: { limit: number }): Promise<PaidSubscription[]> {
  return db
    .select(paidSubscriptionColumns)
    .from(organizationMembers)
    .where(
      and(
        isNotNull(organizationMembers.subscribedBy),
        live,
        notExists(
          db
            .select({ one: sql`1` })
            .from(organizationRoles)
            .where(
              and(
                eq(organizationRoles.userId, organizationMembers.subscribedBy),
                eq(organizationRoles.organizationId, organizationMembers.organizationId),
                eq(organizationRoles.role, "admin"),
              ),
            ),
        ),
      ),
    )
    .limit(limit);
}

/**
 * The Stripe customer a person pays through: the one their latest checkout created (each admin
 * bills to their own customer, never to the one another admin's checkout left on a membership).
 */
export async function findCustomerOfPayer(db: Db, { payerId }: { payerId: string }) {
  const [row] = await db
    .select({ customerId: organizationMembers.stripeCustomerId })
    .from(organizationMembers)
    .where(and(eq(organizationMembers.subscribedBy, payerId), isNotNull(organizationMembers.stripeCustomerId)))
    .orderBy(desc(organizationMembers.subscriptionEventAt))
    .limit(1);
  return row?.customerId ?? null;
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
