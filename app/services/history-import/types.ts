import type { AchievementType } from "#db/enums.ts";

/** One entry of an imported history, as proposed for the review list (before any edit). */
export type HistoryProposal = {
  /** Where it was read: a LinkedIn file (`Positions.csv`) or a JSON Resume section (`work`). */
  source: string;
  title: string;
  company: string;
  description: string;
  /** YYYY-MM-DD, or "" when the file gave none that could be read. */
  date: string;
  type: AchievementType;
};

/** A file the import could not read, with the reason in plain words. */
export class HistoryFileError extends Error {}

/** Joins a summary and its highlights into one description (bulleted), leaving out what is blank. */
export function describe(summary: string | null | undefined, highlights: (string | null | undefined)[] = []) {
  const points = highlights.map((point) => point?.trim()).filter(Boolean);
  return [summary?.trim(), points.length ? points.map((point) => `• ${point}`).join("\n") : ""]
    .filter(Boolean)
    .join("\n\n");
}
