// Memberships (organization_members) and roles (organization_roles): every read and write of the
// two tables lives here. A membership is named by an object, `{ userId, organizationId }`, never
// by two positional ids, so swapping them cannot pass unnoticed.
import { and, count, eq, inArray, sql, type SQL } from "drizzle-orm";
import { inListLimit, type Db } from "../client.ts";
import { keyset, toPage, type PageRequest } from "./paging.ts";
import {
  achievements,
  membershipRemovals,
  organizationMembers,
  organizationRoles,
  organizations,
  profiles,
} from "../schema.ts";

/** One person in one organisation. */
export type MemberKey = { userId: string; organizationId: string };
/** A membership row as the services act on it. */
export type MembershipRef = MemberKey & { id: string };

const isAdminOf = ({ userId, organizationId }: MemberKey) =>
  and(
    eq(organizationRoles.userId, userId),
    eq(organizationRoles.organizationId, organizationId),
    eq(organizationRoles.role, "admin"),
  );
const memberOf = ({ userId, organizationId }: MemberKey) =>
  and(eq(organizationMembers.userId, userId), eq(organizationMembers.organizationId, organizationId));
const adminsOf = (organizationId: string) =>
  and(eq(organizationRoles.organizationId, organizationId), eq(organizationRoles.role, "admin"));

// ---- Reads ----

export async function isOrganizationAdmin(db: Db, key: MemberKey) {
  const [row] = await adminRoleQuery(db, key);
  return Boolean(row);
}

/** The same read as a statement (a row when the person is the organisation's admin). */
export function adminRoleQuery(db: Db, key: MemberKey) {
  return db.select({ id: organizationRoles.id }).from(organizationRoles).where(isAdminOf(key)).limit(1);
}

/** The person's membership of the organisation, with what giving and billing need to know. */
export async function findMembership(db: Db, key: MemberKey) {
  const [row] = await membershipQuery(db, key);
  return row ?? null;
}

/** The same read as a statement, for callers that batch it with others. */
export function membershipQuery(db: Db, key: MemberKey) {
  return db
    .select({
      id: organizationMembers.id,
      status: organizationMembers.status,
      subscriptionStatus: organizationMembers.subscriptionStatus,
    })
    .from(organizationMembers)
    .where(memberOf(key))
    .limit(1);
}

/**
 * What an action on one membership needs, in one statement: the row (found by id, or by person
 * and organisation) with its subscription, the member's and organisation's names, whether `actorId` is that
 * organisation's admin, whether the member is, and how many admins it has (the last one stays).
 */
export async function loadMembershipTarget(
  db: Db,
  target: { membershipId: string } | MemberKey,
  { actorId }: { actorId: string },
) {
  const role = (userId: SQL | string) =>
    sql<number>`exists (select 1 from ${organizationRoles} where ${organizationRoles.userId} = ${userId} and ${organizationRoles.organizationId} = ${organizationMembers.organizationId} and ${organizationRoles.role} = 'admin')`;
  const [row] = await db
    .select({
      id: organizationMembers.id,
      userId: organizationMembers.userId,
      organizationId: organizationMembers.organizationId,
      status: organizationMembers.status,
      subscriptionId: organizationMembers.stripeSubscriptionId,
      subscriptionStatus: organizationMembers.subscriptionStatus,
      stripeCustomerId: organizationMembers.stripeCustomerId,
      memberName: profiles.fullName,
      organizationName: organizations.name,
      actorIsAdmin: role(actorId),
      memberIsAdmin: role(sql`${organizationMembers.userId}`),
      adminCount: sql<number>`(select count(*) from ${organizationRoles} where ${organizationRoles.organizationId} = ${organizationMembers.organizationId} and ${organizationRoles.role} = 'admin')`,
    })
    .from(organizationMembers)
    .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
    .innerJoin(profiles, eq(profiles.id, organizationMembers.userId))
    .where("membershipId" in target ? eq(organizationMembers.id, target.membershipId) : memberOf(target))
    .limit(1);
  if (!row) return null;
  return {
    ...row,
    actorIsAdmin: Boolean(row.actorIsAdmin),
    memberIsAdmin: Boolean(row.memberIsAdmin),
    // Leaving or removing this member would leave the organisation without an admin.
    isLastAdmin: Boolean(row.memberIsAdmin) && row.adminCount <= 1,
  };
}

/** The Stripe subscription a membership pays through, if any. */
export async function findMembershipSubscription(db: Db, membershipId: string) {
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

// The user id is bound besides the organisation ids.
const STATUSES_AT_ONCE = inListLimit(1);

/** The user's membership status in each of these organisations (absent: no membership). */
export async function membershipStatuses(
  db: Db,
  { userId, organizationIds }: { userId: string; organizationIds: string[] },
) {
  if (organizationIds.length === 0) return {};
  const rows = await db
    .select({ organizationId: organizationMembers.organizationId, status: organizationMembers.status })
    .from(organizationMembers)
    .where(
      and(
        eq(organizationMembers.userId, userId),
        inArray(organizationMembers.organizationId, organizationIds.slice(0, STATUSES_AT_ONCE)),
      ),
    );
  return Object.fromEntries(rows.map((row) => [row.organizationId, row.status]));
}

/** What a join request needs, in one round trip: the organisation's name and its admins. */
export async function loadJoinRequestTarget(db: Db, { organizationId }: { organizationId: string }) {
  const [[organization], admins] = await db.batch([
    db.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, organizationId)).limit(1),
    db.select({ userId: organizationRoles.userId }).from(organizationRoles).where(adminsOf(organizationId)),
  ]);
  return organization ? { name: organization.name, adminIds: admins.map((admin) => admin.userId) } : null;
}

/** The organisations the user administers, as a subquery (the directory leaves them out). */
export function administeredOrganizationIds(db: Db, { userId }: { userId: string }) {
  return db
    .select({ id: organizationRoles.organizationId })
    .from(organizationRoles)
    .where(and(eq(organizationRoles.userId, userId), eq(organizationRoles.role, "admin")));
}

/** Organisations this user is the only admin of (an account cannot leave them adminless). */
export async function findSoleAdminOrganizations(db: Db, { userId }: { userId: string }) {
  return db
    .select({ id: organizations.id, name: organizations.name })
    .from(organizationRoles)
    .innerJoin(organizations, eq(organizations.id, organizationRoles.organizationId))
    .where(
      and(
        eq(organizationRoles.userId, userId),
        eq(organizationRoles.role, "admin"),
        sql`(select count(*) from organization_roles other
          where other.organization_id = ${organizationRoles.organizationId} and other.role = 'admin') = 1`,
      ),
    )
    .orderBy(organizations.name)
    .limit(20);
}

/** Every membership of the user (bounded: one per organisation). */
export async function findMembershipIdsOf(db: Db, { userId }: { userId: string }) {
  const rows = await db
    .select({ id: organizationMembers.id })
    .from(organizationMembers)
    .where(eq(organizationMembers.userId, userId))
    .limit(1000);
  return rows.map((row) => row.id);
}

export type MemberListRequest = { page: PageRequest; term: string | null };

/**
 * Everything the admin dashboard shows, in one D1 round trip: one page of Team Members and one of
 * Pending Requests (each optionally searched by name, newest first), with their counts.
 */
export async function loadAdminDashboard(
  db: Db,
  {
    organizationId,
    lists,
  }: { organizationId: string; lists: { members: MemberListRequest; pending: MemberListRequest } },
) {
  const memberColumns = {
    id: organizationMembers.id,
    userId: organizationMembers.userId,
    status: organizationMembers.status,
    requestedAt: organizationMembers.requestedAt,
    approvedAt: organizationMembers.approvedAt,
    subscriptionStatus: organizationMembers.subscriptionStatus,
    fullName: profiles.fullName,
    isAdmin: sql<number>`exists (select 1 from ${organizationRoles} where ${organizationRoles.userId} = ${organizationMembers.userId} and ${organizationRoles.organizationId} = ${organizationMembers.organizationId} and ${organizationRoles.role} = 'admin')`,
  };
  const matching = (status: "pending" | "approved", term: string | null) =>
    and(
      eq(organizationMembers.organizationId, organizationId),
      eq(organizationMembers.status, status),
      term ? sql`instr(lower(${profiles.fullName}), lower(${term})) > 0` : undefined,
    );
  const members = (status: "pending" | "approved", { page, term }: MemberListRequest) => {
    const { where, orderBy, limit } = keyset(organizationMembers.requestedAt, organizationMembers.id, "desc", page);
    return db
      .select(memberColumns)
      .from(organizationMembers)
      .innerJoin(profiles, eq(profiles.id, organizationMembers.userId))
      .where(and(matching(status, term), where))
      .orderBy(...orderBy)
      .limit(limit);
  };
  // Without a search the count reads the index only; with one it joins the names it matches.
  const countMembers = (status: "pending" | "approved", term: string | null) =>
    term
      ? db
          .select({ value: count() })
          .from(organizationMembers)
          .innerJoin(profiles, eq(profiles.id, organizationMembers.userId))
          .where(matching(status, term))
      : db.select({ value: count() }).from(organizationMembers).where(matching(status, null));

  const [
    [organization],
    pending,
    approved,
    [approvedCount],
    [pendingCount],
    [approvedMatches],
    [pendingMatches],
    [achievementCount],
  ] = await db.batch([
    db
      .select({ id: organizations.id, name: organizations.name, inviteCode: organizations.inviteCode })
      .from(organizations)
      .where(eq(organizations.id, organizationId))
      .limit(1),
    members("pending", lists.pending),
    members("approved", lists.members),
    countMembers("approved", null),
    countMembers("pending", null),
    countMembers("approved", lists.members.term),
    countMembers("pending", lists.pending.term),
    db.select({ value: count() }).from(achievements).where(eq(achievements.organizationId, organizationId)),
  ]);
  const cursorOf = (row: { requestedAt: Date; id: string }) => ({ key: row.requestedAt.getTime(), id: row.id });
  const withAdminFlag = <T extends { isAdmin: number }>(rows: T[]) =>
    rows.map((row) => ({ ...row, isAdmin: Boolean(row.isAdmin) }));
  return {
    organization,
    pending: {
      ...toPage(withAdminFlag(pending), lists.pending.page, cursorOf),
      matching: pendingMatches?.value ?? 0,
      term: lists.pending.term,
    },
    members: {
      ...toPage(withAdminFlag(approved), lists.members.page, cursorOf),
      matching: approvedMatches?.value ?? 0,
      term: lists.members.term,
    },
    stats: {
      totalMembers: approvedCount?.value ?? 0,
      pending: pendingCount?.value ?? 0,
      achievements: achievementCount?.value ?? 0,
    },
  };
}

// ---- Writes ----

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

/** The founder of a new organisation: its admin and an approved member (statements for a batch). */
export function founderMembershipStatements(db: Db, { userId, organizationId }: MemberKey) {
  const now = new Date();
  return [
    db.insert(organizationRoles).values({ userId, organizationId, role: "admin" }),
    db
      .insert(organizationMembers)
      .values({ userId, organizationId, status: "approved", requestedAt: now, approvedAt: now }),
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
export const isPendingRequest = (membershipId: string) =>
  sql`exists (select 1 from ${organizationMembers} where ${organizationMembers.id} = ${membershipId} and ${organizationMembers.status} = 'pending')`;
/** Holds while the membership exists (for a write that announces its end, or its creation). */
export const membershipExists = (membershipId: string) =>
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
