import { onFirstUse } from "./on-first-use.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
// Every signed-in page imports this module for the bell's badge; only the popover formats times.
const localeDate = onFirstUse(() => new Intl.DateTimeFormat("en-GB", { dateStyle: "medium" }));

/** Notification times, as the spec words them: 'Just now', 'Nm ago', 'Nh ago', 'Nd ago', then a date. */
export function formatRelativeTime(value: Date | string | number, now: number = Date.now()) {
  const time = new Date(value).getTime();
  const elapsed = Math.max(0, now - time);
  if (elapsed < MINUTE) return "Just now";
  if (elapsed < HOUR) return `${Math.floor(elapsed / MINUTE)}m ago`;
  if (elapsed < DAY) return `${Math.floor(elapsed / HOUR)}h ago`;
  if (elapsed < 7 * DAY) return `${Math.floor(elapsed / DAY)}d ago`;
  return localeDate().format(time);
}

/** The unread badge: the count, or '9+' above 9. */
export function unreadBadge(count: number) {
  return count > 9 ? "9+" : String(count);
}
