// Memberships (organization_members) and roles (organization_roles): every read and write of the
// two tables lives here. A membership is named by an object, `{ userId, organizationId }`, never
// by two positional ids, so swapping them cannot pass unnoticed.
import { and, asc, count, eq, exists, isNull, lt, or, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Db } from "../client.ts";
import { countAchievementsFromQuery } from "./achievements.ts";
import { keyset, toPage, type PageRequest } from "./paging.ts";
import { batchPart } from "./batch-parts.ts";
import {
  memberNameWords,
  membershipRemovals,
  organizationMembers,
  organizationRoles,
  organizations,
  profiles,
  recognisedSince,
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
 * Holds while `giverId` may give `userId` an achievement of `organizationId`: the giver
 * administers the organisation and the recipient is its approved member, subscribed or, when a
 * free limit is set, below it in live achievements from the organisation. The giving INSERT
 * carries it (decision 038), so the checks and the write are one statement in one transaction;
 * the reads that tell a refused giver why are adminRoleQuery, membershipQuery and
 * countAchievementsFromQuery, the same conditions one by one.
 */
export function mayGive(
  db: Db,
  { giverId, userId, organizationId }: { giverId: string } & MemberKey,
  freeLimit: number | undefined,
) {
  const recipient = { userId, organizationId };
  const withinLimit = freeLimit
    ? or(
        eq(organizationMembers.subscriptionStatus, "active"),
        sql`${countAchievementsFromQuery(db, recipient)} < ${freeLimit}`,
      )
    : undefined;
  const approvedRecipient = db
    .select({ one: sql`1` })
    .from(organizationMembers)
    .where(and(memberOf(recipient), eq(organizationMembers.status, "approved"), withinLimit));
  return and(exists(adminRoleQuery(db, { userId: giverId, organizationId })), exists(approvedRecipient))!;
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

/**
 * The user's membership status in every organisation they belong to or asked to join (absent:
 * no membership), for the directory's cards: a statement for the page's batch, read through the
 * user's index. A person has one row per organisation they chose, never a table's worth.
 */
export function membershipStatusesPart(db: Db, { userId }: { userId: string }) {
  return batchPart(
    [
      db
        .select({ organizationId: organizationMembers.organizationId, status: organizationMembers.status })
        .from(organizationMembers)
        .where(eq(organizationMembers.userId, userId)),
    ] as const,
    ([rows]): Record<string, string> => Object.fromEntries(rows.map((row) => [row.organizationId, row.status])),
  );
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

const byName = sql`${organizations.name} collate nocase`;

/**
 * The organisation switcher, as the statements of one batch: a page of the organisations the user
 * is an approved member of (keyset, alphabetical, the id breaking ties), how many there are, and
 * the active one (wherever it falls in the list), with `toResult` to shape their answers. The
 * list is read through the user's memberships (indexed by user) and sorted by name: a person
 * belongs to a few, never to a whole table. `userId` may be an expression (the session's user):
 * the guard reads this in the batch that checks the session (docs/decisions/036).
 */
export function memberOrganizationsRead(db: Db, { userId, page }: { userId: string | SQL<string>; page: PageRequest }) {
  const approved = and(eq(organizationMembers.userId, userId), eq(organizationMembers.status, "approved"));
  const { where, orderBy, limit } = keyset(byName, organizations.id, "asc", page);
  // Whether the person administers each organisation: pages decide admin or member view from it
  // without a read of their own.
  const isAdmin = sql<number>`exists (select 1 from ${organizationRoles} where ${and(
    eq(organizationRoles.userId, userId),
    eq(organizationRoles.organizationId, organizations.id),
    eq(organizationRoles.role, "admin"),
  )})`.mapWith(Boolean);
  const columns = { id: organizations.id, name: organizations.name, isAdmin };
  const pageRows = db
    .select(columns)
    .from(organizationMembers)
    .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
    .where(and(approved, where))
    .orderBy(...orderBy)
    .limit(limit);
  const total = db.select({ value: count() }).from(organizationMembers).where(approved);
  const active = db
    .select(columns)
    .from(profiles)
    .innerJoin(organizationMembers, eq(organizationMembers.organizationId, profiles.activeOrganizationId))
    .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
    .where(and(eq(profiles.id, userId), approved))
    .limit(1);
  return {
    statements: [pageRows, total, active] as const,
    toResult: ([rows, [totalRow], [activeRow]]: [
      Awaited<typeof pageRows>,
      Awaited<typeof total>,
      Awaited<typeof active>,
    ]) => ({
      ...toPage(rows, page, (row) => ({ key: row.name, id: row.id })),
      total: totalRow?.value ?? 0,
      active: activeRow ?? null,
    }),
  };
}

export type MemberOrganizations = ReturnType<ReturnType<typeof memberOrganizationsRead>["toResult"]>;

/**
 * The approved members of an organisation whom it recognised least recently (or never), oldest
 * first, and how many qualify: two statements for the analytics batch. Each member comes with
 * when the organisation last gave them a live achievement (`last_recognised_at`, kept by
 * triggers: decision 037) and the moment they count from (that, else their approval, else their
 * request). Only those not recognised since `needsSince` (epoch ms) qualify. Both read
 * `organization_members_recognised_since_idx`: the list in its order, stopping after `limit`;
 * the count the entries of the members who do not qualify.
 */
export function membersByLastRecognitionQueries(
  db: Db,
  { organizationId }: { organizationId: string },
  { needsSince, limit }: { needsSince: number; limit: number },
) {
  // The very expression the index is built on, so that SQLite reads the index in its order.
  const since = sql<number>`${recognisedSince}`;
  const needing = and(
    eq(organizationMembers.organizationId, organizationId),
    eq(organizationMembers.status, "approved"),
    sql`${since} <= ${needsSince}`,
  );
  return [
    db
      .select({
        userId: organizationMembers.userId,
        fullName: profiles.fullName,
        lastRecognisedAt: organizationMembers.lastRecognisedAt,
        since,
      })
      .from(organizationMembers)
      .innerJoin(profiles, eq(profiles.id, organizationMembers.userId))
      .where(needing)
      .orderBy(asc(since), asc(sql`${profiles.fullName} collate nocase`), asc(organizationMembers.userId))
      .limit(limit),
    // How many qualify: the approved members (the organisation's kept count) less those who do
    // not, counted over the index range after `needsSince`. That side is the smaller one where
    // the list matters (a large organisation recognising a few people a month): it holds only
    // members recognised or approved in the last 60 days.
    db
      .select({
        value: sql<number>`${organizations.approvedMembers} - (select count(*) from ${organizationMembers} where ${and(
          eq(organizationMembers.organizationId, organizationId),
          eq(organizationMembers.status, "approved"),
          sql`${since} > ${needsSince}`,
        )})`,
      })
      .from(organizations)
      .where(eq(organizations.id, organizationId)),
  ] as const;
}

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

// ---- The subscription columns of a membership (billing) ----

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

export type MemberListRequest = { page: PageRequest; term: string | null };

/** Words of a name search past these are ignored: each one more is a lookup per member found. */
const MAX_SEARCH_WORDS = 4;

/** `column` starts with `word`, in SQLite's lowercase (the words' own, migration 0009), as an index range. */
const startsWith = (column: SQLWrapper, word: string) =>
  sql`(${column} >= lower(${word}) and ${column} < lower(${word}) || char(1114111))`;

/**
 * A name search of an organisation's members (decision 044): `found`, the memberships with a
 * name word starting with the search's first word, to read first (`crossJoin` keeps SQLite from
 * scanning the members instead); `membership`, the condition that joins a membership to them and
 * asks for the search's other words. Words are split as migration 0009 splits names; a search of
 * nothing but separators finds no one.
 */
function nameSearch(db: Db, organizationId: string, term: string) {
  const [first = "", ...others] = term
    .split(/[\s-]+/)
    .filter(Boolean)
    .slice(0, MAX_SEARCH_WORDS);
  const found = db
    .selectDistinct({ membershipId: memberNameWords.membershipId })
    .from(memberNameWords)
    .where(and(eq(memberNameWords.organizationId, organizationId), startsWith(memberNameWords.word, first)))
    .as("found");
  const otherWord = (word: string) =>
    sql`exists (select 1 from ${memberNameWords} where ${memberNameWords.membershipId} = ${organizationMembers.id} and ${startsWith(memberNameWords.word, word)})`;
  return {
    found,
    membership: and(
      eq(organizationMembers.id, found.membershipId),
      first === "" ? sql`0` : undefined,
      ...others.map(otherWord),
    ),
  };
}

/**
 * The admin dashboard's lists for a page's batch: the organisation (its invite code and the
 * counts its triggers keep: decision 037), one page of Team Members and one of Pending Requests
 * (each optionally searched by name, newest first) and, for a search, how many match. A page
 * reads `page size + 1` rows through `organization_members_org_status_requested_idx`; a count
 * without a search is the organisation's own column. A name search starts from the members
 * whose name has a word starting with the search's first word (one range of member_name_words'
 * primary key, decision 044), keeps those of the list with every other word too, and sorts
 * them: it reads about three rows per member found, whatever the organisation's size.
 */
export function adminDashboardPart(
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
  const inList = (status: "pending" | "approved") =>
    and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.status, status));
  // One list's page and, for a search, how many match. Only a search counts rows; without one
  // the organisation's column is the count (counting nothing keeps the batch's shape fixed).
  const listQueries = (status: "pending" | "approved", { page, term }: MemberListRequest) => {
    const { where, orderBy, limit } = keyset(organizationMembers.requestedAt, organizationMembers.id, "desc", page);
    if (term === null)
      return {
        page: db
          .select(memberColumns)
          .from(organizationMembers)
          .innerJoin(profiles, eq(profiles.id, organizationMembers.userId))
          .where(and(inList(status), where))
          .orderBy(...orderBy)
          .limit(limit),
        matches: db
          .select({ value: count() })
          .from(organizationMembers)
          .where(sql`0`),
      };
    const search = nameSearch(db, organizationId, term);
    return {
      page: db
        .select(memberColumns)
        .from(search.found)
        .crossJoin(organizationMembers)
        .innerJoin(profiles, eq(profiles.id, organizationMembers.userId))
        .where(and(search.membership, inList(status), where))
        .orderBy(...orderBy)
        .limit(limit),
      matches: db
        .select({ value: count() })
        .from(search.found)
        .crossJoin(organizationMembers)
        .where(and(search.membership, inList(status))),
    };
  };
  const pendingList = listQueries("pending", lists.pending);
  const approvedList = listQueries("approved", lists.members);

  return batchPart(
    [
      db
        .select({
          id: organizations.id,
          name: organizations.name,
          inviteCode: organizations.inviteCode,
          approvedMembers: organizations.approvedMembers,
          pendingMembers: organizations.pendingMembers,
          achievementsGiven: organizations.achievementsGiven,
        })
        .from(organizations)
        .where(eq(organizations.id, organizationId))
        .limit(1),
      pendingList.page,
      approvedList.page,
      approvedList.matches,
      pendingList.matches,
    ] as const,
    ([[organization], pending, approved, [approvedMatches], [pendingMatches]]) => {
      const cursorOf = (row: { requestedAt: Date; id: string }) => ({ key: row.requestedAt.getTime(), id: row.id });
      const withAdminFlag = <T extends { isAdmin: number }>(rows: T[]) =>
        rows.map((row) => ({ ...row, isAdmin: Boolean(row.isAdmin) }));
      const approvedCount = organization?.approvedMembers ?? 0;
      const pendingCount = organization?.pendingMembers ?? 0;
      return {
        organization: organization && {
          id: organization.id,
          name: organization.name,
          inviteCode: organization.inviteCode,
        },
        pending: {
          ...toPage(withAdminFlag(pending), lists.pending.page, cursorOf),
          matching: lists.pending.term ? (pendingMatches?.value ?? 0) : pendingCount,
          term: lists.pending.term,
        },
        members: {
          ...toPage(withAdminFlag(approved), lists.members.page, cursorOf),
          matching: lists.members.term ? (approvedMatches?.value ?? 0) : approvedCount,
          term: lists.members.term,
        },
        stats: {
          totalMembers: approvedCount,
          pending: pendingCount,
          achievements: organization?.achievementsGiven ?? 0,
        },
      };
    },
  );
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
