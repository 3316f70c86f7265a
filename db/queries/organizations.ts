import { and, count, eq, inArray, notInArray, sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import { keyset, toPage, type PageRequest } from "./paging.ts";
import {
  achievements,
  membershipRemovals,
  newInviteCode,
  organizationMembers,
  organizationRoles,
  organizations,
  profiles,
} from "../schema.ts";

const byName = sql`${organizations.name} collate nocase`;

export function findOrganization(db: Db, organizationId: string) {
  return db.query.organizations.findFirst({
    where: eq(organizations.id, organizationId),
    columns: { id: true, name: true, description: true },
  });
}

/**
 * What the invite page needs in one round trip: the organisation, whether the code opens it, and
 * (for a signed-in visitor) their membership and whether an admin removed or rejected them.
 */
export async function loadInvite(db: Db, organizationId: string, code: string | null, userId: string | null) {
  const [[organization], [membership], [removal]] = await db.batch([
    db
      .select({ id: organizations.id, name: organizations.name, inviteCode: organizations.inviteCode })
      .from(organizations)
      .where(eq(organizations.id, organizationId))
      .limit(1),
    db
      .select({ id: organizationMembers.id, status: organizationMembers.status })
      .from(organizationMembers)
      .where(and(eq(organizationMembers.userId, userId ?? ""), eq(organizationMembers.organizationId, organizationId)))
      .limit(1),
    db
      .select({ userId: membershipRemovals.userId })
      .from(membershipRemovals)
      .where(and(eq(membershipRemovals.userId, userId ?? ""), eq(membershipRemovals.organizationId, organizationId)))
      .limit(1),
  ]);
  if (!organization) return null;
  const { inviteCode, ...shown } = organization;
  return {
    organization: shown,
    membership: membership ?? null,
    // A removed or rejected person's old code opens nothing: they ask again like anyone else.
    codeAdmits: code !== null && sameSecret(code, inviteCode) && !removal,
  };
}

/** Constant-time comparison, so response timing says nothing about how much of a code matched. */
function sameSecret(given: string, expected: string) {
  const a = new TextEncoder().encode(given);
  const b = new TextEncoder().encode(expected);
  let difference = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) difference |= (a[i] ?? 0) ^ b[i]!;
  return difference === 0;
}

/** 'Reset link': a new code; the old link stops admitting anyone at once. */
export async function resetInviteCode(db: Db, organizationId: string) {
  await db.update(organizations).set({ inviteCode: newInviteCode() }).where(eq(organizations.id, organizationId));
}

export async function isOrganizationAdmin(db: Db, userId: string, organizationId: string) {
  const [row] = await db
    .select({ id: organizationRoles.id })
    .from(organizationRoles)
    .where(
      and(
        eq(organizationRoles.userId, userId),
        eq(organizationRoles.organizationId, organizationId),
        eq(organizationRoles.role, "admin"),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** The statements that create an organisation with its creator as admin and approved member. */
export function createOrganizationStatements(
  db: Db,
  userId: string,
  input: { name: string; description: string | null },
) {
  const organizationId = crypto.randomUUID();
  const now = new Date();
  return {
    organizationId,
    statements: [
      db.insert(organizations).values({ id: organizationId, name: input.name, description: input.description }),
      db.insert(organizationRoles).values({ userId, organizationId, role: "admin" }),
      db
        .insert(organizationMembers)
        .values({ userId, organizationId, status: "approved", requestedAt: now, approvedAt: now }),
      db.update(profiles).set({ activeOrganizationId: organizationId }).where(eq(profiles.id, userId)),
    ] as const,
  };
}

export async function createOrganization(db: Db, userId: string, input: { name: string; description: string | null }) {
  const { organizationId, statements } = createOrganizationStatements(db, userId, input);
  await db.batch(statements);
  return organizationId;
}

const directoryColumns = { id: organizations.id, name: organizations.name, description: organizations.description };
const directoryCursor = (row: { name: string; id: string }) => ({ key: row.name, id: row.id });

/** One page of every organisation, alphabetical, with how many there are. */
export async function listAllOrganizations(db: Db, page: PageRequest) {
  const { where, orderBy, limit } = keyset(byName, organizations.id, "asc", page);
  const [rows, [total]] = await db.batch([
    db
      .select(directoryColumns)
      .from(organizations)
      .where(where)
      .orderBy(...orderBy)
      .limit(limit),
    db.select({ value: count() }).from(organizations),
  ]);
  return { ...toPage(rows, page, directoryCursor), total: total?.value ?? 0 };
}

/**
 * One page of a case-insensitive partial match on the name, alphabetical, leaving out
 * organisations the user administers, with how many match.
 */
export async function searchOrganizations(db: Db, userId: string, term: string, page: PageRequest) {
  const administered = db
    .select({ id: organizationRoles.organizationId })
    .from(organizationRoles)
    .where(and(eq(organizationRoles.userId, userId), eq(organizationRoles.role, "admin")));
  // A substring match, case-insensitive for ASCII as LIKE was. Not LIKE: D1 caps LIKE patterns
  // at 50 bytes ("pattern too complex", a 500 for any longer search), and instr() has no
  // wildcards to escape.
  const matches = and(
    sql`instr(lower(${organizations.name}), lower(${term})) > 0`,
    notInArray(organizations.id, administered),
  );
  const { where, orderBy, limit } = keyset(byName, organizations.id, "asc", page);
  const [rows, [total]] = await db.batch([
    db
      .select(directoryColumns)
      .from(organizations)
      .where(and(matches, where))
      .orderBy(...orderBy)
      .limit(limit),
    db.select({ value: count() }).from(organizations).where(matches),
  ]);
  return { ...toPage(rows, page, directoryCursor), total: total?.value ?? 0 };
}

/** The user's membership status in each of these organisations (absent: no membership). */
export async function membershipStatuses(db: Db, userId: string, organizationIds: string[]) {
  if (organizationIds.length === 0) return {};
  const rows = await db
    .select({ organizationId: organizationMembers.organizationId, status: organizationMembers.status })
    .from(organizationMembers)
    .where(
      and(
        eq(organizationMembers.userId, userId),
        inArray(organizationMembers.organizationId, organizationIds.slice(0, 90)),
      ),
    );
  return Object.fromEntries(rows.map((row) => [row.organizationId, row.status]));
}

export function findMembership(db: Db, userId: string, organizationId: string) {
  return db.query.organizationMembers.findFirst({
    where: and(eq(organizationMembers.userId, userId), eq(organizationMembers.organizationId, organizationId)),
    columns: { id: true, status: true },
  });
}

export function findMembershipById(db: Db, membershipId: string) {
  return db.query.organizationMembers.findFirst({
    where: eq(organizationMembers.id, membershipId),
    columns: { id: true, userId: true, organizationId: true, status: true },
  });
}

export async function listAdminIds(db: Db, organizationId: string) {
  const rows = await db
    .select({ userId: organizationRoles.userId })
    .from(organizationRoles)
    .where(and(eq(organizationRoles.organizationId, organizationId), eq(organizationRoles.role, "admin")));
  return rows.map((row) => row.userId);
}

export async function countAdmins(db: Db, organizationId: string) {
  const [row] = await db
    .select({ value: count() })
    .from(organizationRoles)
    .where(and(eq(organizationRoles.organizationId, organizationId), eq(organizationRoles.role, "admin")));
  return row?.value ?? 0;
}

export type MemberListRequest = { page: PageRequest; term: string | null };

/**
 * Everything the admin dashboard shows, in one D1 round trip: one page of Team Members and one of
 * Pending Requests (each optionally searched by name, newest first), with their counts.
 */
export async function loadAdminDashboard(
  db: Db,
  organizationId: string,
  lists: { members: MemberListRequest; pending: MemberListRequest },
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
