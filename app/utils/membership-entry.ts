// A 'Member of …' passport entry's anniversaries (decision 070). Plain module: the passport's
// cards render them on the server and in the browser alike (achievement-card-notes.tsx); the
// heading is the card's own (achievement-card.tsx).
import { formatLongDate } from "./dates.ts";

/** The anniversaries an entry marks: the first year, then every five. */
const isAnniversary = (years: number) => years === 1 || (years > 0 && years % 5 === 0);

/**
 * The latest anniversary the membership reached by `today` (or by its end), as years and the day
 * it fell on; null before the first. A 29 February start counts on 28 February in other years.
 */
export function latestAnniversary(from: string, endedOn: string | null | undefined, today: string) {
  const until = endedOn && endedOn < today ? endedOn : today;
  const [year, month, day] = from.slice(0, 10).split("-").map(Number) as [number, number, number];
  let reached: { years: number; on: string } | null = null;
  for (let years = 1; ; years++) {
    const date = new Date(Date.UTC(year + years, month - 1, day));
    // Rolled into March: the anniversary is the last day of February.
    if (date.getUTCMonth() !== month - 1) date.setUTCDate(0);
    const on = date.toISOString().slice(0, 10);
    if (on > until) return reached;
    if (isAnniversary(years)) reached = { years, on };
  }
}

/** "1-year anniversary, 12 March 2025". */
export const anniversaryText = ({ years, on }: { years: number; on: string }) =>
  `${years}-year anniversary, ${formatLongDate(on)}`;
