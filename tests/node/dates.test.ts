import { expect, it } from "vitest";
import { formatDayMonth, formatLongDate, formatMonthYear, formatShortDate } from "#app/utils/dates.ts";

// The dates are written out rather than formatted by Intl (decision 050); the runtime's own en-GB
// formatter (ICU's CLDR data) is the checker that they read exactly as Intl would write them.
const intl = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat("en-GB", { ...options, timeZone: "UTC" });
const long = intl({ dateStyle: "long" });
const medium = intl({ dateStyle: "medium" });
const dayMonth = intl({ day: "numeric", month: "short" });
const monthYear = intl({ month: "short", year: "numeric" });

it("every day of two years (a leap year among them) reads as Intl's en-GB writes it", () => {
  const start = Date.UTC(2023, 0, 1);
  for (let day = 0; day < 731; day++) {
    // A moment late in the day: formats in UTC, whatever the hour.
    const moment = start + day * 86_400_000 + 23 * 3_600_000;
    const isoDate = new Date(moment).toISOString().slice(0, 10);
    expect(formatLongDate(isoDate)).toBe(long.format(moment));
    expect(formatShortDate(moment)).toBe(medium.format(moment));
    expect(formatShortDate(new Date(moment).toISOString())).toBe(medium.format(moment));
    expect(formatDayMonth(moment)).toBe(dayMonth.format(moment));
    expect(formatMonthYear(moment)).toBe(monthYear.format(moment));
  }
});

it("a long date takes a full timestamp by its day, and leaves what is not a date as it is", () => {
  expect(formatLongDate("2024-09-05T23:30:00.000Z")).toBe("5 September 2024");
  expect(formatLongDate("2024-02-29")).toBe("29 February 2024");
  expect(formatLongDate("not a date")).toBe("not a date");
});
