// Dates as en-GB writes them, in UTC, so the server and every visitor's browser agree. Written out
// rather than formatted by Intl: the first Intl formatter a page creates loads the browser's locale
// data, about 160 ms of main thread at Lighthouse's 4x CPU slowdown, and a page's dates are
// formatted again while it hydrates (decision 050). The names are CLDR's en-GB ones ("Sept");
// tests/workers/dates.test.ts holds every format equal to Intl's en-GB output.

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
const SHORT_MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sept", "Oct", "Nov", "Dec"];

/** "2024-03-15" -> "15 March 2024", the same on the server and in every visitor's time zone. */
export function formatLongDate(isoDate: string) {
  const date = new Date(`${isoDate.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return isoDate;
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}

/** A moment's UTC day, short month name and year. */
function shortParts(value: Date | string | number) {
  const date = new Date(value);
  return { day: date.getUTCDate(), month: SHORT_MONTHS[date.getUTCMonth()], year: date.getUTCFullYear() };
}

/** A moment as "5 Mar 2025" (UTC). */
export function formatShortDate(value: Date | string | number) {
  const { day, month, year } = shortParts(value);
  return `${day} ${month} ${year}`;
}

/** A moment's day as "5 Mar" (UTC). */
export function formatDayMonth(value: Date | string | number) {
  const { day, month } = shortParts(value);
  return `${day} ${month}`;
}

/** A moment's month as "Mar 2025" (UTC). */
export function formatMonthYear(value: Date | string | number) {
  const { month, year } = shortParts(value);
  return `${month} ${year}`;
}
