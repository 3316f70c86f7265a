import { formatLongDate } from "./dates.ts";

// Expiry and renewal as every screen says them (decision 071): a plain module, shared by the
// passport card, the credential page, Verify, the given-achievements list and the server.

/** Today's date in UTC, YYYY-MM-DD: the day an expiry is compared with, on the server and in the browser. */
export const todayUtc = (now: Date | number = Date.now()) => new Date(now).toISOString().slice(0, 10);

/** Expired on its `validUntil` day: that is the first day it is no longer valid. */
export const isExpired = (validUntil: string, today: string) => validUntil.slice(0, 10) <= today;

/** 'Valid until {date}' while it holds, then 'Expired on {date}'. */
export function expiryText(validUntil: string, today: string) {
  return `${isExpired(validUntil, today) ? "Expired on" : "Valid until"} ${formatLongDate(validUntil)}`;
}

/** 'Renewed 1 time, first given {date}', 'Renewed 2 times, first given {date}'. */
export function renewalHistoryText(renewalCount: number, firstGivenOn: string) {
  return `Renewed ${renewalCount} ${renewalCount === 1 ? "time" : "times"}, first given ${formatLongDate(firstGivenOn)}`;
}

/** The credential's `validUntil` for an expiry day: its first instant, in UTC. */
export const credentialValidUntil = (validUntil: string) => `${validUntil}T00:00:00Z`;

/** '1 day left', '7 days left'. */
export const daysLeftText = (days: number) => `${days} ${days === 1 ? "day" : "days"} left`;

/** What 'Renew' proposes: a year after the current expiry, or after today once it has passed. */
export function proposedRenewal(validUntil: string | null, today: string) {
  const from = validUntil && validUntil > today ? validUntil : today;
  const date = new Date(`${from}T00:00:00Z`);
  date.setUTCFullYear(date.getUTCFullYear() + 1);
  return date.toISOString().slice(0, 10);
}
