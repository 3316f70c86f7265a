import { and, asc, desc, eq, gte, inArray, lt, sql } from "drizzle-orm";
import {
  bucketsOf,
  DAY_MS,
  lastMonths,
  NEEDS_RECOGNITION_DAYS,
  NEEDS_RECOGNITION_LISTED,
  rangeWindow,
  TOP_RECOGNISERS,
  type AnalyticsRange,
} from "#app/utils/analytics.ts";
import type { Db } from "../client.ts";
import { achievements, LIVE_ACHIEVEMENT_STATUSES, profiles } from "../schema.ts";
import { membersByLastRecognitionQuery } from "./memberships.ts";

// Recognition analytics of one organisation. Every figure is one aggregate that D1 computes over
// the (organization_id, created_at) and (organization_id, user_id, created_at) indexes; the
// Worker never sees individual achievements. "Recognition" is an achievement the organisation
// gave that is pending or accepted (a declined one does not count), dated by when it was given.
// The members needing recognition read the membership table, so that query lives in
// memberships.ts (membersByLastRecognitionQuery) and joins this batch.

const given = (organizationId: string) =>
  and(eq(achievements.organizationId, organizationId), inArray(achievements.status, LIVE_ACHIEVEMENT_STATUSES));
const createdMs = sql<number>`${achievements.createdAt}`;
const monthOf = sql<string>`strftime('%Y-%m', ${achievements.createdAt} / 1000, 'unixepoch')`;

export async function loadRecognitionAnalytics(
  db: Db,
  organizationId: string,
  range: AnalyticsRange,
  now = new Date(),
) {
  const window = rangeWindow(range, now);
  const months = lastMonths(now);
  const needsSince = now.getTime() - NEEDS_RECOGNITION_DAYS * DAY_MS;
  const inRange = and(
    given(organizationId),
    gte(achievements.createdAt, new Date(window.start)),
    lt(achievements.createdAt, new Date(window.end)),
  );

  // Day and week buckets are whole steps from the start of the range; months are calendar months.
  const bucket =
    window.bucket === "month"
      ? monthOf
      : // D1 binds numbers as reals: truncate the quotient to a whole bucket index.
        sql<string>`cast(cast((${createdMs} - ${window.start}) / ${window.bucket === "day" ? DAY_MS : 7 * DAY_MS} as integer) as text)`;

  const [[totals], series, needs, trend, recognisers] = await db.batch([
    db
      .select({
        current: sql<number>`coalesce(sum(${createdMs} >= ${window.start}), 0)`,
        previous: sql<number>`coalesce(sum(${createdMs} < ${window.start}), 0)`,
      })
      .from(achievements)
      .where(
        and(
          given(organizationId),
          gte(achievements.createdAt, new Date(window.previousStart)),
          lt(achievements.createdAt, new Date(window.end)),
        ),
      ),
    db
      .select({ key: bucket, count: sql<number>`count(*)` })
      .from(achievements)
      .where(inRange)
      .groupBy(bucket),
    membersByLastRecognitionQuery(db, { organizationId }, { needsSince, limit: NEEDS_RECOGNITION_LISTED }),
    db
      .select({ key: monthOf, count: sql<number>`count(*)` })
      .from(achievements)
      .where(
        and(
          given(organizationId),
          gte(achievements.createdAt, new Date(months[0]!.start)),
          lt(achievements.createdAt, new Date(window.end)),
        ),
      )
      .groupBy(monthOf),
    db
      .select({ userId: achievements.createdBy, fullName: profiles.fullName, count: sql<number>`count(*)` })
      .from(achievements)
      .innerJoin(profiles, eq(profiles.id, achievements.createdBy))
      .where(inRange)
      .groupBy(achievements.createdBy)
      // Ties read alphabetically, so the order never flickers between loads.
      .orderBy(desc(sql`count(*)`), asc(sql`${profiles.fullName} collate nocase`), asc(achievements.createdBy))
      .limit(TOP_RECOGNISERS),
  ]);

  const seriesCounts = new Map(series.map((row) => [String(row.key), row.count]));
  const trendCounts = new Map(trend.map((row) => [row.key, row.count]));
  return {
    range,
    bucket: window.bucket,
    start: window.start,
    end: window.end,
    total: totals?.current ?? 0,
    previousTotal: totals?.previous ?? 0,
    series: bucketsOf(window).map((item) => ({ start: item.start, count: seriesCounts.get(item.key) ?? 0 })),
    needsRecognition: {
      members: needs.map((row) => ({
        userId: row.userId,
        fullName: row.fullName,
        neverRecognised: row.lastRecognisedAt === null,
        days: Math.floor((now.getTime() - Number(row.since)) / DAY_MS),
      })),
      total: needs[0]?.total ?? 0,
    },
    trend: months.map((month) => ({ start: month.start, count: trendCounts.get(month.key) ?? 0 })),
    topRecognisers: recognisers,
  };
}

export type RecognitionAnalytics = Awaited<ReturnType<typeof loadRecognitionAnalytics>>;
