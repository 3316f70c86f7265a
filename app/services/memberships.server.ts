import type { AppLoadContext } from "@remix-run/cloudflare";
import {
  approveMembership,
  countAdmins,
  deleteMembership,
  findMembership,
  findMembershipById,
  insertApprovedMembership,
  insertPendingMembership,
  isOrganizationAdmin,
  listAdminIds,
} from "#db/queries/memberships.ts";
import { findOrganization, loadInvite } from "#db/queries/organizations.ts";
import type { Toast } from "#app/utils/cookies.server.ts";
import { requireOrganizationAdmin } from "#app/utils/authorization.server.ts";
import { ToastError } from "#app/utils/form-reply.server.ts";
import { notify } from "./notifications.server.ts";
import { cancelStripeSubscriptionOf } from "#app/utils/stripe.server.ts";

const LAST_ADMIN = new ToastError({
  title: "Error",
  description: "An organisation needs at least one admin. Make someone else an admin first.",
  variant: "destructive",
});

/**
 * The membership an admin acts on, with the organisation taken from the row itself: only an
 * admin of that organisation may touch it (404 when absent, 403 otherwise).
 */
export async function requireMembershipForAdmin(context: AppLoadContext, adminId: string, membershipId: string) {
  const membership = await findMembershipById(context.db, membershipId);
  if (!membership) throw new Response("Membership not found", { status: 404 });
  await requireOrganizationAdmin(context, membership.organizationId, {
    userId: adminId,
    reason: "not an admin of the membership's organisation",
    membershipId,
  });
  return membership;
}

export async function requestToJoin(
  context: AppLoadContext,
  user: { id: string; fullName: string },
  organizationId: string,
) {
  const organization = await findOrganization(context.db, organizationId);
  if (!organization) throw new Response("Organisation not found", { status: 404 });
  const created = await insertPendingMembership(context.db, { userId: user.id, organizationId });
  if (created) {
    const adminIds = await listAdminIds(context.db, { organizationId });
    await notify(
      context,
      adminIds.map((userId) => ({
        userId,
        title: "New join request",
        message: `${user.fullName} asked to join ${organization.name}.`,
        type: "info" as const,
      })),
    );
  }
  return { title: "Request sent", description: "Your membership request has been sent" } satisfies Toast;
}

/**
 * Opening an invite link. With the organisation's current code (and no removal by an admin) the
 * person joins at once; without it the same page sends a join request for an admin to approve.
 * Says what happened, or the membership that already exists; null when there is no organisation.
 */
export async function joinByInvite(
  context: AppLoadContext,
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
    const toast = await requestToJoin(context, user, organization.id);
    return { organization, outcome: "requested", toast } as const;
  }
  const created = await insertApprovedMembership(context.db, { userId: user.id, organizationId: organization.id });
  return { organization, outcome: created ? "joined" : "already-member" } as const;
}

export async function approve(context: AppLoadContext, adminId: string, membershipId: string) {
  const membership = await requireMembershipForAdmin(context, adminId, membershipId);
  if (await approveMembership(context.db, membership)) {
    const organization = await findOrganization(context.db, membership.organizationId);
    await notify(context, [
      {
        userId: membership.userId,
        title: "Request approved",
        message: `You are now a member of ${organization?.name ?? "the organisation"}.`,
        type: "success",
      },
    ]);
  }
  return { title: "Member approved", description: "The member has been added to your organisation." } satisfies Toast;
}

/** Reject (a pending request) and remove (a member) both delete the membership. */
export async function rejectOrRemove(
  context: AppLoadContext,
  adminId: string,
  membershipId: string,
  kind: "reject" | "remove",
) {
  const membership = await requireMembershipForAdmin(context, adminId, membershipId);
  await guardLastAdmin(context, membership);
  await stopSubscription(context, membership.id);
  if (await deleteMembership(context.db, membership, { byAdmin: true })) {
    const organization = await findOrganization(context.db, membership.organizationId);
    const name = organization?.name ?? "the organisation";
    await notify(context, [
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
          },
    ]);
  }
  return kind === "reject"
    ? ({ title: "Request rejected", description: "The membership request has been declined." } satisfies Toast)
    : ({ title: "Member removed" } satisfies Toast);
}

/** Leaving deletes only the caller's own membership. */
export async function leave(context: AppLoadContext, userId: string, organizationId: string) {
  const membership = await findMembership(context.db, { userId, organizationId });
  if (!membership) throw new Response("Membership not found", { status: 404 });
  const target = { id: membership.id, userId, organizationId };
  await guardLastAdmin(context, target);
  await stopSubscription(context, membership.id);
  await deleteMembership(context.db, target);
  return { title: "Left organisation" } satisfies Toast;
}

async function guardLastAdmin(context: AppLoadContext, membership: { userId: string; organizationId: string }) {
  const isAdmin = await isOrganizationAdmin(context.db, membership);
  if (isAdmin && (await countAdmins(context.db, membership)) <= 1) throw LAST_ADMIN;
}

async function stopSubscription(context: AppLoadContext, membershipId: string) {
  try {
    await cancelStripeSubscriptionOf(context, membershipId);
  } catch (error) {
    console.error(
      JSON.stringify({ level: "error", message: "stripe cancel failed", membershipId, error: String(error) }),
    );
    throw new ToastError({
      title: "Error",
      description: "The member's subscription could not be cancelled, so nothing was changed. Please try again.",
      variant: "destructive",
    });
  }
}
