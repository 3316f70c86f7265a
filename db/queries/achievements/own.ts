import { and, count, countDistinct, desc, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../client.ts";
import {
  achievements,
  credentials,
  importedCredentials,
  LIVE_ACHIEVEMENT_STATUSES,
  organizations,
} from "../../schema.ts";
import { batchPart } from "../batch-parts.ts";
import { keyset, toPage, type PageRequest } from "../paging.ts";
import { notRenewed, notRevoked, passportColumns, passportCursor, passportOrder } from "./card.ts";

// What a person sees of their own achievements: their passport's lists (pending offers, accepted
// entries, hidden ones too) and their dashboard's summary.

/** The personal dashboard: counts and the latest few of the user's live achievements (a batch part). */
export function personalSummaryPart(db: Db, userId: string, recent: number) {
  // Membership entries are not recognition (decision 070): no figure here counts or lists them.
  const live = and(
    eq(achievements.userId, userId),
    inArray(achievements.status, LIVE_ACHIEVEMENT_STATUSES),
    isNull(achievements.membershipOrganizationId),
  );
  return batchPart(
    [
      db
        .select({ total: count(), companies: countDistinct(achievements.organizationId) })
        .from(achievements)
        .where(live),
      db
        .select({
          id: achievements.id,
          title: achievements.title,
          description: achievements.description,
          date: achievements.date,
          organizationName: organizations.name,
        })
        .from(achievements)
        .leftJoin(organizations, eq(organizations.id, achievements.organizationId))
        .where(live)
        .orderBy(desc(achievements.date), desc(achievements.createdAt))
        .limit(recent),
    ] as const,
    ([[totals], latest]) => ({ total: totals?.total ?? 0, companies: totals?.companies ?? 0, latest }),
  );
}

/**
 * The owner's passport in one round trip: a page of pending offers (newest first), a page of
 * accepted achievements (hidden ones too; by date, newest first) and how many of each there are.
 */
export async function loadOwnAchievements(
  db: Db,
  userId: string,
  pages: { pending: PageRequest; accepted: PageRequest },
) {
  // The owner's list answers endorsements on /passport/endorsements, not on its cards.
  const { endorsementsJson: _, ...ownColumns } = passportColumns;
  const columns = {
    ...ownColumns,
    isVisible: achievements.isVisible,
    // Accepted while its credential could not be signed: the card says it is on its way (issue 43).
    credentialPreparing: sql<boolean>`(${achievements.credentialDue} is not null)`.mapWith(Boolean),
  };
  const pendingWhere = and(eq(achievements.userId, userId), eq(achievements.status, "pending"));
  const acceptedWhere = and(
    eq(achievements.userId, userId),
    eq(achievements.status, "accepted"),
    notRevoked,
    notRenewed,
  );
  const pendingPage = keyset(achievements.createdAt, achievements.id, "desc", pages.pending);
  const acceptedPage = keyset(passportOrder, achievements.id, "desc", pages.accepted);
  /** One page of the person's entries where `where` holds, with what a card shows of each. */
  const pageOf = (where: SQL | undefined, page: typeof pendingPage) =>
    db
      .select(columns)
      .from(achievements)
      .leftJoin(organizations, eq(organizations.id, achievements.organizationId))
      .leftJoin(credentials, eq(credentials.achievementId, achievements.id))
      .leftJoin(importedCredentials, eq(importedCredentials.achievementId, achievements.id))
      .where(and(where, page.where))
      .orderBy(...page.orderBy)
      .limit(page.limit);
  const [pending, accepted, [pendingTotal], [acceptedTotal]] = await db.batch([
    pageOf(pendingWhere, pendingPage),
    pageOf(acceptedWhere, acceptedPage),
    db.select({ value: count() }).from(achievements).where(pendingWhere),
    db
      .select({ value: count() })
      .from(achievements)
      .leftJoin(credentials, eq(credentials.achievementId, achievements.id))
      .leftJoin(importedCredentials, eq(importedCredentials.achievementId, achievements.id))
      .where(acceptedWhere),
  ]);
  return {
    pending: {
      ...toPage(pending, pages.pending, (row) => ({ key: row.createdAt.getTime(), id: row.id })),
      total: pendingTotal?.value ?? 0,
    },
    accepted: { ...toPage(accepted, pages.accepted, passportCursor), total: acceptedTotal?.value ?? 0 },
  };
}
