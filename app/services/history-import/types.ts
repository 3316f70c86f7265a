import type { HistoryEntry } from "#app/utils/history-import.ts";

/** One entry of an imported history, as proposed for the review list (before any edit or key). */
export type HistoryProposal = Omit<HistoryEntry, "key">;

/** A file the import could not read, with the reason in plain words. */
export class HistoryFileError extends Error {}

/** Joins a summary and its highlights into one description (bulleted), leaving out what is blank. */
export function describe(summary: string | null | undefined, highlights: (string | null | undefined)[] = []) {
  const points = highlights.map((point) => point?.trim()).filter(Boolean);
  return [summary?.trim(), points.length ? points.map((point) => `• ${point}`).join("\n") : ""]
    .filter(Boolean)
    .join("\n\n");
}
