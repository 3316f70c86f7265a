import { onFirstUse } from "./on-first-use.ts";

const longDate = onFirstUse(() => new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: "UTC" }));

/** "2024-03-15" -> "15 March 2024", the same on the server and in every visitor's time zone. */
export function formatLongDate(isoDate: string) {
  const date = new Date(`${isoDate.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? isoDate : longDate().format(date);
}

const shortDate = onFirstUse(() => new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" }));

/** A moment as "5 Mar 2025" (UTC, so server and browser agree). */
export function formatShortDate(value: Date | string | number) {
  return shortDate().format(new Date(value));
}
