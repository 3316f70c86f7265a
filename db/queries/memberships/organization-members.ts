// One organisation's member lists: the admin dashboard's Team Members and Pending Requests pages,
// their name search, and the members it has recognised least recently (for analytics).
import { and, asc, count, eq, sql, type SQLWrapper } from "drizzle-orm";
import type { Db } from "../../client.ts";
import {
  memberNameWords,
  organizationMembers,
  organizationRoles,
  organizations,
  profiles,
  recognisedSince,
} from "../../schema.ts";
import { batchPart } from "../batch-parts.ts";
import { keyset, toPage, type PageRequest } from "../paging.ts";

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
    viewerId,
    lists,
  }: {
    organizationId: string;
    viewerId: string;
    lists: { members: MemberListRequest; pending: MemberListRequest };
  },
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
    // Only the admin who pays for a subscription may open its billing portal (decision 059).
    paidByViewer: sql<number>`coalesce(${organizationMembers.subscribedBy} = ${viewerId}, 0)`,
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
      const withAdminFlag = <T extends { isAdmin: number; paidByViewer: number }>(rows: T[]) =>
        rows.map((row) => ({ ...row, isAdmin: Boolean(row.isAdmin), paidByViewer: Boolean(row.paidByViewer) }));
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
