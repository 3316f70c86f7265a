import { and, eq, isNotNull, lt, ne, or, sql } from "drizzle-orm";
import { batchSql, type Db } from "../client.ts";
import {
  achievements,
  newInviteCode,
  organizationMembers,
  organizationRoles,
  pendingOrganizationSetups,
  profiles,
  sessions,
  users,
  type UserType,
} from "../schema.ts";

/**
 * Records what a sign-up chose (account type, and the organisation to create on confirmation).
 * Writes nothing unless the user row exists: the auth library answers a sign-up for a taken
 * address with a made-up user, and that must not touch the real account.
 */
export async function recordSignUp(
  db: Db,
  input: {
    userId: string;
    fullName: string;
    userType: UserType;
    organization?: { name: string; description: string | null };
  },
) {
  const now = Date.now();
  const statements = [
    sql`insert or ignore into profiles (id, full_name, user_type, is_public, created_at, updated_at)
      select ${input.userId}, ${input.fullName}, ${input.userType}, 1, ${now}, ${now}
      where exists (select 1 from users where id = ${input.userId} and email_verified = 0)`,
  ];
  if (input.organization) {
    statements.push(
      sql`insert or replace into pending_organization_setups (user_id, organization_name, organization_description, created_at)
        select ${input.userId}, ${input.organization.name}, ${input.organization.description}, ${now}
        where exists (select 1 from users where id = ${input.userId} and email_verified = 0)`,
    );
  }
  await batchSql(db, statements);
}

export async function findPendingOrganizationSetup(db: Db, userId: string) {
  const [row] = await db
    .select({ organizationName: pendingOrganizationSetups.organizationName })
    .from(pendingOrganizationSetups)
    .where(eq(pendingOrganizationSetups.userId, userId))
    .limit(1);
  return row ?? null;
}

/**
 * After the e-mail is confirmed: makes sure the profile exists and turns a pending organisation
 * setup into an organisation with the user as admin and approved member. One batch (one
 * transaction in D1) that claims the setup by deleting it, so opening the link twice, even at
 * the same moment, creates one organisation. True when this call created it.
 */
export async function completeSignUp(db: Db, user: { id: string; name: string }): Promise<boolean> {
  const now = Date.now();
  const organizationId = crypto.randomUUID();
  const setupExists = sql`exists (select 1 from pending_organization_setups where user_id = ${user.id})`;
  const organizationCreated = sql`exists (select 1 from organizations where id = ${organizationId})`;
  const [, organizationInsert] = await batchSql(db, [
    sql`insert or ignore into profiles (id, full_name, user_type, is_public, created_at, updated_at)
      values (${user.id}, ${user.name}, 'individual', 1, ${now}, ${now})`,
    sql`insert into organizations (id, name, description, invite_code, created_at)
      select ${organizationId}, organization_name, organization_description, ${newInviteCode()}, ${now}
      from pending_organization_setups where user_id = ${user.id}`,
    sql`insert or ignore into organization_roles (id, user_id, organization_id, role, created_at)
      select ${crypto.randomUUID()}, ${user.id}, ${organizationId}, 'admin', ${now} where ${organizationCreated} and ${setupExists}`,
    sql`insert or ignore into organization_members (id, user_id, organization_id, status, requested_at, approved_at, subscription_status)
      select ${crypto.randomUUID()}, ${user.id}, ${organizationId}, 'approved', ${now}, ${now}, 'inactive' where ${organizationCreated} and ${setupExists}`,
    sql`update profiles set active_organization_id = ${organizationId}, updated_at = ${now}
      where id = ${user.id} and ${organizationCreated} and ${setupExists}`,
    sql`delete from pending_organization_setups where user_id = ${user.id}`,
  ]);
  return (organizationInsert?.meta.changes ?? 0) > 0;
}

/** Archive: hide the account, drop memberships and roles, end every other session. */
export async function archiveAccount(db: Db, userId: string, keepSessionId: string | null, now = new Date()) {
  await db.batch([
    db.update(profiles).set({ deletedAt: now, activeOrganizationId: null }).where(eq(profiles.id, userId)),
    db.delete(organizationMembers).where(eq(organizationMembers.userId, userId)),
    db.delete(organizationRoles).where(eq(organizationRoles.userId, userId)),
    db
      .delete(sessions)
      .where(
        keepSessionId ? and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)) : eq(sessions.userId, userId),
      ),
  ]);
}

/** Signing in again within the grace period brings the account back (memberships stay gone). */
export async function reactivateAccount(db: Db, userId: string) {
  await db.update(profiles).set({ deletedAt: null }).where(eq(profiles.id, userId));
}

export async function findAccountsArchivedBefore(db: Db, cutoff: Date, limit: number) {
  const rows = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(and(isNotNull(profiles.deletedAt), lt(profiles.deletedAt, cutoff)))
    .limit(limit);
  return rows.map((row) => row.id);
}

/** Media URLs on achievements the user received or created, which are purged with them. */
export async function findAchievementMediaOf(db: Db, userId: string) {
  return db
    .select({ imageUrl: achievements.imageUrl, videoUrl: achievements.videoUrl })
    .from(achievements)
    .where(or(eq(achievements.userId, userId), eq(achievements.createdBy, userId)));
}

/** Deletes the user; every row that belongs to them goes with it through ON DELETE CASCADE. */
export async function deleteUser(db: Db, userId: string) {
  await db.delete(users).where(eq(users.id, userId));
}
