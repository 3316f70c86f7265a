import type { ServiceContext } from "./context.server.ts";
import type { BatchItem } from "drizzle-orm/batch";
import { loadJoinRequestTarget, loadMembershipTarget } from "#db/queries/memberships/authorization.ts";
import type { MemberKey } from "#db/queries/memberships/keys.ts";
import {
  approveMembershipStatements,
  deleteMembershipStatements,
  insertApprovedMembership,
  isPendingRequest,
  membershipExists,
  pendingMembershipInsert,
} from "#db/queries/memberships/writes.ts";
import { loadInvite } from "#db/queries/organizations.ts";
import { notificationInsert, type NewNotification } from "#db/queries/notifications.ts";
import type { Toast } from "#app/utils/toast-message.ts";
import { refuseUnlessOrganizationAdmin } from "#app/utils/authorization.server.ts";
import { NotFound, Refusal } from "#app/utils/domain-errors.server.ts";
import { announce } from "./notifications.server.ts";
import { cancelStripeSubscription } from "#app/utils/stripe.server.ts";
import { errorSummary, log } from "#app/utils/log.server.ts";
import { endMembership, recordMembership } from "./membership-entries.server.ts";
import { endPaidSubscriptions, paidSubscriptionsRead, type EndedSubscriptions } from "./payer-subscriptions.server.ts";

const LAST_ADMIN = new Refusal({
  title: "Error",
  description: "An organisation needs at least one admin. Make someone else an admin first.",
  variant: "destructive",
});

/**
 * The membership an admin acts on, read in one round trip with the organisation taken from the
 * row itself: only an admin of that organisation may touch it (404 when absent, 403 otherwise).
 */
export async function requireMembershipForAdmin(context: ServiceContext, adminId: string, membershipId: string) {
  const membership = await loadMembershipTarget(context.db, { membershipId }, { actorId: adminId });
  if (!membership) throw new NotFound("Membership not found");
  refuseUnlessOrganizationAdmin(context, membership.organizationId, membership.actorRole, {
    userId: adminId,
    reason: "not an admin of the membership's organisation",
    membershipId,
  });
  return membership;
}

/** Asking to join: the request and the admins' notifications in one batch, after one read. */
export async function requestToJoin(
  context: ServiceContext,
  user: { id: string; fullName: string },
  organizationId: string,
) {
  const organization = await loadJoinRequestTarget(context.db, { organizationId });
  if (!organization) throw new NotFound("Organisation not found");
  const key: MemberKey = { userId: user.id, organizationId };
  const requestId = crypto.randomUUID();
  const notices = organization.adminIds.map((userId) =>
    notificationInsert(
      context.db,
      {
        userId,
        title: "New join request",
        message: `${user.fullName} asked to join ${organization.name}.`,
        type: "info",
      },
      membershipExists({ membershipId: requestId }),
    ),
  );
  // Announced only when this request is the one that creates the membership (its id is new).
  const results = await context.db.batch([pendingMembershipInsert(context.db, { id: requestId, ...key }), ...notices]);
  announce(context, results.slice(1).flat() as Announced);
  return { title: "Request sent", description: "Your membership request has been sent" } satisfies Toast;
}

type Announced = Parameters<typeof announce>[1];

/**
 * Opening an invite link. With the organisation's current code (and no removal by an admin) the
 * person joins at once; without it the same page sends a join request for an admin to approve.
 * Says what happened, or the membership that already exists; null when there is no organisation.
 */
export async function joinByInvite(
  context: ServiceContext,
  user: { id: string; fullName: string },
  organizationId: string,
  code: string | null,
) {
  const invite = await loadInvite(context.db, organizationId, code, user.id);
  if (!invite) return null;
  const { organization, membership } = invite;
  if (membership)
    return { organization, outcome: membership.status === "approved" ? "already-member" : "request-pending" } as const;
  if (!invite.codeAdmits) {
    const toast = await requestToJoin(context, user, organization.id).catch((error: unknown) => {
      throw new JoinRequestFailed(error);
    });
    return { organization, outcome: "requested", toast } as const;
  }
  const created = await insertApprovedMembership(context.db, { userId: user.id, organizationId: organization.id });
  if (created) await recordMembership(context, { userId: user.id, organizationId: organization.id });
  return { organization, outcome: created ? "joined" : "already-member" } as const;
}

/** The invite page's request path failed: its page says 'Error requesting membership' (spec section 8). */
export class JoinRequestFailed extends Error {
  constructor(readonly failure: unknown) {
    super("join request failed");
  }
}

/** Approving: one read (the row and the caller's role), one batch (the approval and its notice). */
export async function approve(context: ServiceContext, adminId: string, membershipId: string) {
  const membership = await requireMembershipForAdmin(context, adminId, membershipId);
  await changeMembership(
    context,
    // Announced only by the approval that finds the request still pending.
    notificationInsert(
      context.db,
      {
        userId: membership.userId,
        title: "Request approved",
        message: `You are now a member of ${membership.organizationName}.`,
        type: "success",
      },
      isPendingRequest({ membershipId: membership.id }),
    ),
    approveMembershipStatements(context.db, membership),
  );
  // The 'Member of …' entry and its credential (decision 070); once, however often approved.
  await recordMembership(context, membership);
  return { title: "Member approved", description: "The member has been added to your organisation." } satisfies Toast;
}

/** Reject (a pending request) and remove (a member) both delete the membership. */
export async function rejectOrRemove(
  context: ServiceContext,
  adminId: string,
  membershipId: string,
  kind: "reject" | "remove",
) {
  const membership = await requireMembershipForAdmin(context, adminId, membershipId);
  if (membership.isLastAdmin) throw LAST_ADMIN;
  await stopSubscription(context, membership);
  const name = membership.organizationName;
  const notice: NewNotification =
    kind === "reject"
      ? {
          userId: membership.userId,
          title: "Request declined",
          message: `Your request to join ${name} was declined.`,
          type: "warning",
        }
      : {
          userId: membership.userId,
          title: "Removed from organisation",
          message: `You are no longer a member of ${name}.`,
          type: "warning",
        };
  // The membership goes, with the notice (announced only by the request that finds the membership
  // still there) and, read in the same batch, the subscriptions the person paid for here: a
  // removed admin no longer pays for anyone in the organisation (decision 059).
  const [inserted, paidRows] = await context.db.batch([
    notificationInsert(context.db, notice, membershipExists({ membershipId: membership.id })),
    paidSubscriptionsRead(context, { payerId: membership.userId, organizationId: membership.organizationId }),
    ...deleteMembershipStatements(context.db, membership, { byAdmin: true }),
  ]);
  announce(context, inserted);
  if (kind === "reject")
    return { title: "Request rejected", description: "The membership request has been declined." } satisfies Toast;
  // Removed, the person's entry is dated and its credential replaced (decision 070).
  await endMembership(context, membership);
  const paid = await endPaidSubscriptions(context, paidRows, "removed");
  return { title: "Member removed", ...paidNote(paid, `${membership.memberName} paid for`) } satisfies Toast;
}

/** Leaving deletes only the caller's own membership. */
export async function leave(context: ServiceContext, userId: string, organizationId: string) {
  const membership = await loadMembershipTarget(context.db, { userId, organizationId }, { actorId: userId });
  if (!membership) throw new NotFound("Membership not found");
  if (membership.isLastAdmin) throw LAST_ADMIN;
  await stopSubscription(context, membership);
  // Nor does anyone who left pay for its members any longer (decision 059): read in the same
  // batch, ended once the leaving is written.
  const [paidRows] = await context.db.batch([
    paidSubscriptionsRead(context, { payerId: userId, organizationId }),
    ...deleteMembershipStatements(context.db, membership),
  ]);
  await endMembership(context, membership);
  const paid = await endPaidSubscriptions(context, paidRows, "left");
  return { title: "Left organisation", ...paidNote(paid, "you paid for") } satisfies Toast;
}

/** What a toast adds when the subscriptions someone paid for end with their membership. */
function paidNote({ ended, failed, more }: EndedSubscriptions, paidBy: string): { description?: string } {
  if (ended + failed === 0 && !more) return {};
  if (failed === 0 && !more)
    return {
      description:
        ended === 1
          ? `The subscription ${paidBy} here has been cancelled.`
          : `The ${ended} subscriptions ${paidBy} here have been cancelled.`,
    };
  // What Stripe did not cancel now (or more than one request ends) is left to the daily sweep.
  return { description: `The subscriptions ${paidBy} here will be cancelled within a day.` };
}

/** A membership change and the notice that announces it, as one batch; the notice is then pushed. */
async function changeMembership(
  context: ServiceContext,
  notice: ReturnType<typeof notificationInsert>,
  statements: readonly BatchItem<"sqlite">[],
) {
  const [inserted] = await context.db.batch([notice, ...statements]);
  announce(context, inserted);
}

/**
 * The membership's own subscription stops before its row goes: the row is its only record, so
 * a Stripe failure refuses the whole change rather than leave a subscription nobody can find.
 */
async function stopSubscription(
  context: ServiceContext,
  membership: { id: string; subscriptionId: string | null; subscriptionStatus: string },
) {
  try {
    await cancelStripeSubscription(context, membership);
  } catch (error) {
    log("error", "stripe cancel failed", {
      requestId: context.requestId,
      membershipId: membership.id,
      error: errorSummary(error),
    });
    throw new Refusal({
      title: "Error",
      description: "The member's subscription could not be cancelled, so nothing was changed. Please try again.",
      variant: "destructive",
    });
  }
}
