// The dates of an imported history, as LinkedIn's export and JSON Resume write them, read as a
// calendar date (YYYY-MM-DD). A month or a year alone stands for its first day.

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

const pad = (value: number) => String(value).padStart(2, "0");

/** The date when it exists on the calendar (not 31 February), else null. */
function calendarDate(year: number, month: number, day: number) {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${year}-${pad(month)}-${pad(day)}`;
}

const monthOf = (name: string) => MONTHS[name.slice(0, 3).toLowerCase()] ?? null;

/**
 * `2019-03-15`, `2019-03`, `2019`, `Mar 2019`, `March 2019`, `Mar 15, 2019`, `15 Mar 2019` and
 * `3/15/19` (LinkedIn's US form) as YYYY-MM-DD; anything else (or nothing) as null.
 */
export function historyDate(text: string | null | undefined): string | null {
  const value = text?.trim() ?? "";
  let match: RegExpMatchArray | null;
  if ((match = value.match(/^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?$/)))
    return calendarDate(Number(match[1]), Number(match[2] ?? 1), Number(match[3] ?? 1));
  if ((match = value.match(/^([A-Za-z]{3,9})\.?,? (\d{4})$/))) {
    const month = monthOf(match[1]!);
    return month ? calendarDate(Number(match[2]), month, 1) : null;
  }
  if ((match = value.match(/^([A-Za-z]{3,9})\.? (\d{1,2}),? (\d{4})$/))) {
    const month = monthOf(match[1]!);
    return month ? calendarDate(Number(match[3]), month, Number(match[2])) : null;
  }
  if ((match = value.match(/^(\d{1,2}) ([A-Za-z]{3,9})\.?,? (\d{4})$/))) {
    const month = monthOf(match[2]!);
    return month ? calendarDate(Number(match[3]), month, Number(match[1])) : null;
  }
  if ((match = value.match(/^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})(?:,? .*)?$/))) {
    // Two digits: this century unless that would be the future (`1/5/98` is 1998).
    const short = Number(match[3]);
    const year =
      match[3]!.length === 4 ? short : 2000 + short > new Date().getUTCFullYear() ? 1900 + short : 2000 + short;
    return calendarDate(year, Number(match[1]), Number(match[2]));
  }
  return null;
}
