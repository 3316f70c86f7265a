// Membership writes: join requests, joining by invite, founding an organisation, approving,
// removing and leaving, and an archived account's memberships.
import { and, eq, sql, type SQL } from "drizzle-orm";
import { insertWhen, type Db } from "../../client.ts";
import { membershipRemovals, organizationMembers, organizationRoles, profiles } from "../../schema.ts";
import type { MemberKey, MembershipRef } from "./keys.ts";

/** A join request (nothing when the user already has a membership there: the unique index holds). */
export function pendingMembershipInsert(db: Db, { id, userId, organizationId }: MembershipRef) {
  return db.insert(organizationMembers).values({ id, userId, organizationId, status: "pending" }).onConflictDoNothing();
}

/** Joining by invite link: an approved membership and a member role at once. */
export async function insertApprovedMembership(db: Db, { userId, organizationId }: MemberKey) {
  const now = new Date();
  const [[membership]] = await db.batch([
    db
      .insert(organizationMembers)
      .values({ userId, organizationId, status: "approved", requestedAt: now, approvedAt: now })
      .onConflictDoNothing()
      .returning({ id: organizationMembers.id }),
    db.insert(organizationRoles).values({ userId, organizationId, role: "member" }).onConflictDoNothing(),
    db.update(profiles).set({ activeOrganizationId: organizationId }).where(eq(profiles.id, userId)),
  ]);
  return membership ?? null;
}

/**
 * The founder of a new organisation: its admin and an approved member (statements for a batch),
 * written only `when` it holds as the batch runs (the organisation was made by this batch).
 */
export function founderMembershipStatements(db: Db, { userId, organizationId }: MemberKey, when: SQL) {
  const now = new Date();
  return [
    insertWhen(db, organizationRoles, { userId, organizationId, role: "admin" }, when),
    insertWhen(
      db,
      organizationMembers,
      { userId, organizationId, status: "approved", requestedAt: now, approvedAt: now },
      when,
    ),
  ] as const;
}

/**
 * The same as raw statements that write only `when` it holds, for a batch that creates the
 * organisation in an INSERT ... SELECT (confirming an organisation account's e-mail).
 */
export function founderMembershipSql({ userId, organizationId }: MemberKey, { now, when }: { now: number; when: SQL }) {
  return [
    sql`insert or ignore into ${organizationRoles} (id, user_id, organization_id, role, created_at)
      select ${crypto.randomUUID()}, ${userId}, ${organizationId}, 'admin', ${now} where ${when}`,
    sql`insert or ignore into ${organizationMembers} (id, user_id, organization_id, status, requested_at, approved_at, subscription_status)
      select ${crypto.randomUUID()}, ${userId}, ${organizationId}, 'approved', ${now}, ${now}, 'inactive' where ${when}`,
  ];
}

/** Holds while the membership is still a pending request (for a write that announces its approval). */
export const isPendingRequest = ({ membershipId }: { membershipId: string }) =>
  sql`exists (select 1 from ${organizationMembers} where ${organizationMembers.id} = ${membershipId} and ${organizationMembers.status} = 'pending')`;
/** Holds while the membership exists (for a write that announces its end, or its creation). */
export const membershipExists = ({ membershipId }: { membershipId: string }) =>
  sql`exists (select 1 from ${organizationMembers} where ${organizationMembers.id} = ${membershipId})`;
/** Approves a pending request (a second approval changes nothing): statements for a batch. */
export function approveMembershipStatements(db: Db, membership: MembershipRef) {
  return [
    db
      .update(organizationMembers)
      .set({ status: "approved", approvedAt: new Date() })
      .where(and(eq(organizationMembers.id, membership.id), eq(organizationMembers.status, "pending"))),
    db
      .insert(organizationRoles)
      .values({ userId: membership.userId, organizationId: membership.organizationId, role: "member" })
      .onConflictDoNothing(),
    // Approved again by an admin: an earlier removal no longer stands.
    db
      .delete(membershipRemovals)
      .where(
        and(
          eq(membershipRemovals.userId, membership.userId),
          eq(membershipRemovals.organizationId, membership.organizationId),
        ),
      ),
  ] as const;
}

/**
 * Rejecting, removing and leaving all delete the membership, with the roles it carried. An admin's
 * reject or remove also records the removal, so the invite code no longer admits that person.
 */
export function deleteMembershipStatements(
  db: Db,
  membership: MembershipRef,
  { byAdmin = false }: { byAdmin?: boolean } = {},
) {
  const removal = db
    .insert(membershipRemovals)
    .values({ userId: membership.userId, organizationId: membership.organizationId })
    .onConflictDoNothing();
  return [
    db.delete(organizationMembers).where(eq(organizationMembers.id, membership.id)),
    db
      .delete(organizationRoles)
      .where(
        and(
          eq(organizationRoles.userId, membership.userId),
          eq(organizationRoles.organizationId, membership.organizationId),
        ),
      ),
    db
      .update(profiles)
      .set({ activeOrganizationId: sql`null` })
      .where(and(eq(profiles.id, membership.userId), eq(profiles.activeOrganizationId, membership.organizationId))),
    ...(byAdmin ? [removal] : []),
  ] as const;
}

/** Every membership and role of a user, as statements for the batch that archives the account. */
export function deleteAllMembershipsStatements(db: Db, { userId }: { userId: string }) {
  return [
    db.delete(organizationMembers).where(eq(organizationMembers.userId, userId)),
    db.delete(organizationRoles).where(eq(organizationRoles.userId, userId)),
  ] as const;
}
