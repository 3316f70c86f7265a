// The analytics panel's ranges and time windows, shared by the queries (db/queries/analytics.ts),
// the loader, the queries' tests and the components: without imports, so the browser's code
// reads them without bundling the query builder. Days are UTC days, so every admin (and the
// server) sees the same buckets.

export const ANALYTICS_RANGES = [7, 30, 90, 365] as const;
export type AnalyticsRange = (typeof ANALYTICS_RANGES)[number];
export const DEFAULT_ANALYTICS_RANGE: AnalyticsRange = 30;

/** 'Needs recognition': no recognition from the organisation in this many days or more. */
export const NEEDS_RECOGNITION_DAYS = 60;
export const NEEDS_RECOGNITION_LISTED = 6;
export const TREND_MONTHS = 6;
export const TOP_RECOGNISERS = 5;

export const DAY_MS = 24 * 60 * 60 * 1000;

export type Bucket = "day" | "week" | "month";

/** The range from a search param; anything else (absent, typo, old link) is the default. */
export function parseAnalyticsRange(value: string | null): AnalyticsRange {
  const days = Number(value);
  return (ANALYTICS_RANGES as readonly number[]).includes(days) ? (days as AnalyticsRange) : DEFAULT_ANALYTICS_RANGE;
}

export const bucketFor = (range: AnalyticsRange): Bucket => (range <= 30 ? "day" : range <= 90 ? "week" : "month");

/**
 * The last `range` days, today included: [start, end) in ms, with the previous period of the
 * same length right before it.
 */
export function rangeWindow(range: AnalyticsRange, now: Date) {
  const todayStart = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  const end = todayStart + DAY_MS;
  const start = end - range * DAY_MS;
  return { start, end, previousStart: start - range * DAY_MS, bucket: bucketFor(range) };
}

const monthKey = (date: Date) => date.toISOString().slice(0, 7);

/** First day (UTC, ms) of the calendar month `back` months before the one holding `now`. */
export function monthStart(now: Date, back = 0) {
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1);
}

/** Every bucket of a window in order, with its key as the SQL groups it and its first moment. */
export function bucketsOf(window: { start: number; end: number; bucket: Bucket }) {
  const buckets: { key: string; start: number }[] = [];
  if (window.bucket === "month") {
    for (
      let at = new Date(window.start);
      at.getTime() < window.end;
      at = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1))
    ) {
      buckets.push({ key: monthKey(at), start: at.getTime() });
    }
    return buckets;
  }
  const step = window.bucket === "day" ? DAY_MS : 7 * DAY_MS;
  for (let index = 0, at = window.start; at < window.end; index++, at += step)
    buckets.push({ key: String(index), start: at });
  return buckets;
}

/** The last `months` calendar months, oldest first, as 'YYYY-MM' keys. */
export function lastMonths(now: Date, months = TREND_MONTHS) {
  return Array.from({ length: months }, (_, index) => {
    const start = monthStart(now, months - 1 - index);
    return { key: monthKey(new Date(start)), start };
  });
}
