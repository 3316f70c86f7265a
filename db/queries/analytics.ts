import { and, asc, desc, eq, gte, lt, sql } from "drizzle-orm";
import {
  bucketsOf,
  DAY_MS,
  lastMonths,
  NEEDS_RECOGNITION_DAYS,
  NEEDS_RECOGNITION_LISTED,
  rangeWindow,
  TOP_RECOGNISERS,
  type AnalyticsRange,
} from "./analytics-ranges.ts";
import type { Db } from "../client.ts";
import { profiles, recognitionDays } from "../schema.ts";
import { batchPart, runPart } from "./batch-parts.ts";
import { membersByLastRecognitionQueries } from "./memberships/organization-members.ts";

// Recognition analytics of one organisation. "Recognition" is an achievement the organisation
// gave that is pending or accepted (a declined one does not count), dated by when it was given,
// in UTC days (decision 007). Every figure reads the `recognition_days` rollup (one row per day
// and giver, kept exact by triggers: decision 037), never the achievements themselves, so a
// range costs its days, not the achievements in it. The members needing recognition read the
// membership table, so that query lives in memberships/organization-members.ts and joins this
// batch.

const day = sql<number>`${recognitionDays.day}`;
const live = sql<number>`coalesce(sum(${recognitionDays.live}), 0)`;
const monthOf = sql<string>`strftime('%Y-%m', ${recognitionDays.day} * 86400, 'unixepoch')`;
const dayOf = (ms: number) => Math.floor(ms / DAY_MS);

/** The analytics' statements for a page's batch (see `loadRecognitionAnalytics`). */
export function recognitionAnalyticsPart(db: Db, organizationId: string, range: AnalyticsRange, now = new Date()) {
  const window = rangeWindow(range, now);
  const months = lastMonths(now);
  const needsSince = now.getTime() - NEEDS_RECOGNITION_DAYS * DAY_MS;
  const [start, end, previousStart] = [dayOf(window.start), dayOf(window.end), dayOf(window.previousStart)];
  const days = (from: number) =>
    and(
      eq(recognitionDays.organizationId, organizationId),
      gte(recognitionDays.day, from),
      lt(recognitionDays.day, end),
    );

  // Day and week buckets are whole steps from the start of the range; months are calendar months.
  const bucket =
    window.bucket === "month"
      ? monthOf
      : // D1 binds numbers as reals: truncate the quotient to a whole bucket index.
        sql<string>`cast(cast((${day} - ${start}) / ${window.bucket === "day" ? 1 : 7} as integer) as text)`;
  const [needs, needing] = membersByLastRecognitionQueries(
    db,
    { organizationId },
    { needsSince, limit: NEEDS_RECOGNITION_LISTED },
  );

  return batchPart(
    [
      db
        .select({
          current: sql<number>`coalesce(sum(case when ${day} >= ${start} then ${recognitionDays.live} end), 0)`,
          previous: sql<number>`coalesce(sum(case when ${day} < ${start} then ${recognitionDays.live} end), 0)`,
        })
        .from(recognitionDays)
        .where(days(previousStart)),
      db.select({ key: bucket, count: live }).from(recognitionDays).where(days(start)).groupBy(bucket),
      needs,
      needing,
      db
        .select({ key: monthOf, count: live })
        .from(recognitionDays)
        .where(days(dayOf(months[0]!.start)))
        .groupBy(monthOf),
      db
        .select({ userId: recognitionDays.givenBy, fullName: profiles.fullName, count: live })
        .from(recognitionDays)
        // A purged giver ('') has no profile and leaves the list, as before the rollup.
        .innerJoin(profiles, eq(profiles.id, recognitionDays.givenBy))
        .where(days(start))
        .groupBy(recognitionDays.givenBy)
        // Only live recognitions count: a giver whose every one in the range was declined is not listed.
        .having(sql`${live} > 0`)
        // Ties read alphabetically, so the order never flickers between loads.
        .orderBy(desc(live), asc(sql`${profiles.fullName} collate nocase`), asc(recognitionDays.givenBy))
        .limit(TOP_RECOGNISERS),
    ] as const,
    ([[totals], series, needs, [needing], trend, recognisers]) => {
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
          total: needing?.value ?? 0,
        },
        trend: months.map((month) => ({ start: month.start, count: trendCounts.get(month.key) ?? 0 })),
        topRecognisers: recognisers,
      };
    },
  );
}

/** Every figure of the analytics panel for `range`, in one D1 batch. */
export function loadRecognitionAnalytics(db: Db, organizationId: string, range: AnalyticsRange, now = new Date()) {
  return runPart(db, recognitionAnalyticsPart(db, organizationId, range, now));
}

export type RecognitionAnalytics = Awaited<ReturnType<typeof loadRecognitionAnalytics>>;
