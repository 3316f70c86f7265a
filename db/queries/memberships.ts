import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import { membershipRemovals, organizationMembers, organizationRoles, profiles } from "../schema.ts";

/** A join request; null when the user already has a membership there (the unique index holds). */
export async function insertPendingMembership(db: Db, userId: string, organizationId: string) {
  const [row] = await db
    .insert(organizationMembers)
    .values({ userId, organizationId, status: "pending" })
    .onConflictDoNothing()
    .returning({ id: organizationMembers.id });
  return row ?? null;
}

/** Joining by invite link: an approved membership and a member role at once. */
export async function insertApprovedMembership(db: Db, userId: string, organizationId: string) {
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

/** Approves a pending request (a second approval changes nothing). True when this call approved it. */
export async function approveMembership(db: Db, membership: { id: string; userId: string; organizationId: string }) {
  const [approved] = await db.batch([
    db
      .update(organizationMembers)
      .set({ status: "approved", approvedAt: new Date() })
      .where(and(eq(organizationMembers.id, membership.id), eq(organizationMembers.status, "pending")))
      .returning({ id: organizationMembers.id }),
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
  ]);
  return approved.length > 0;
}

/**
 * Rejecting, removing and leaving all delete the membership, with the roles it carried. An admin's
 * reject or remove also records the removal, so the invite code no longer admits that person.
 */
export async function deleteMembership(
  db: Db,
  membership: { id: string; userId: string; organizationId: string },
  { byAdmin = false }: { byAdmin?: boolean } = {},
) {
  const removal = db
    .insert(membershipRemovals)
    .values({ userId: membership.userId, organizationId: membership.organizationId })
    .onConflictDoNothing();
  const [deleted] = await db.batch([
    db
      .delete(organizationMembers)
      .where(eq(organizationMembers.id, membership.id))
      .returning({ id: organizationMembers.id }),
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
  ]);
  return deleted.length > 0;
}

export function findOrganizationMember(db: Db, organizationId: string, userId: string) {
  return db.query.organizationMembers.findFirst({
    where: and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.userId, userId)),
    columns: { status: true, subscriptionStatus: true },
  });
}
