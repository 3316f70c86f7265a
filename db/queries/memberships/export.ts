// The membership and role readers of "Download my data" (db/queries/data-export.ts runs them).
import { asc, eq } from "drizzle-orm";
import type { Db } from "../../client.ts";
import { organizationMembers, organizationRoles, organizations } from "../../schema.ts";

/** One page of the user's memberships for "Download my data" (oldest request first). */
export function exportedMembershipsPage(
  db: Db,
  { userId }: { userId: string },
  { limit, offset }: { limit: number; offset: number },
) {
  return db
    .select({
      organizationId: organizations.id,
      organizationName: organizations.name,
      status: organizationMembers.status,
      requestedAt: organizationMembers.requestedAt,
      approvedAt: organizationMembers.approvedAt,
      subscriptionStatus: organizationMembers.subscriptionStatus,
    })
    .from(organizationMembers)
    .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
    .where(eq(organizationMembers.userId, userId))
    .orderBy(asc(organizationMembers.requestedAt), asc(organizationMembers.id))
    .limit(limit)
    .offset(offset);
}

/** One page of the user's roles for "Download my data" (oldest first). */
export function exportedRolesPage(
  db: Db,
  { userId }: { userId: string },
  { limit, offset }: { limit: number; offset: number },
) {
  return db
    .select({
      organizationId: organizations.id,
      organizationName: organizations.name,
      role: organizationRoles.role,
      createdAt: organizationRoles.createdAt,
    })
    .from(organizationRoles)
    .innerJoin(organizations, eq(organizations.id, organizationRoles.organizationId))
    .where(eq(organizationRoles.userId, userId))
    .orderBy(asc(organizationRoles.createdAt), asc(organizationRoles.id))
    .limit(limit)
    .offset(offset);
}
