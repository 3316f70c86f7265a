import type { BatchItem } from "drizzle-orm/batch";
import { historyItemSchema } from "#app/utils/achievement-schemas.ts";
import { HISTORY_MAX_ITEMS, type HistoryEntry, type HistoryReview } from "#app/utils/history-import.ts";
import { Refusal } from "#app/utils/domain-errors.server.ts";
import { invalidatePassports } from "#app/utils/passport-cache.server.ts";
import type { Toast } from "#app/utils/toast-message.ts";
import {
  countAttempt,
  RATE_LIMIT_MESSAGE,
  userSubject,
  withinLimit,
  withinLimitSql,
} from "#app/utils/rate-limit.server.ts";
import {
  HISTORY_ENTRIES_MAX,
  historyEntriesHeldQuery,
  historyImportStatements,
  savedImportKeysQueries,
} from "#db/queries/achievements/writes.ts";
import type { ServiceContext } from "./context.server.ts";
import { readHistoryFiles, type HistoryFile } from "./history-import/read.ts";
import { HistoryFileError, type HistoryProposal } from "./history-import/types.ts";

// 'Import history' (issue 32, decision 067): a LinkedIn export or a JSON Resume becomes a review
// list, and the entries the person keeps become their own achievements, under the rules of the
// Add Self Achievement form. Each entry has an import key, a hash of what the file said (type,
// title, company, date), stored as the achievement's submission key: the unique index on it
// makes a second import of the same entry (the same file twice, or LinkedIn then a résumé
// saying the same) add nothing. The key is always computed here, from the entry as it is stored
// (issue 43): a key posted with the form is never used, so a forged one cannot hide an entry.

const READ_FAILED = "Import failed";
const ADD_FAILED = "Error adding achievements";
const TOO_MANY =
  `A passport holds at most ${HISTORY_ENTRIES_MAX.toLocaleString("en")} imported entries, and these would take ` +
  "yours past it. Untick some entries, or delete imported ones you no longer need.";

/** The import key of an entry: its type, title, company and date, as read or as it will be stored. */
async function importKey(proposal: Pick<HistoryProposal, "type" | "title" | "company" | "date">) {
  const said = [proposal.type, proposal.title, proposal.company, proposal.date].map((part) =>
    part.normalize("NFC").trim().toLowerCase(),
  );
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify(said)));
  const bytes = new Uint8Array(digest).slice(0, 18);
  return `history:${btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")}`;
}

/**
 * An entry under the rules of a self achievement: as it will be stored (trimmed), or the first
 * rule it breaks in the form's own words.
 */
export function checkEntry(
  entry: HistoryEntry,
  timeZone?: string,
): { entry: HistoryEntry; problem: null } | { entry: null; problem: string } {
  const result = historyItemSchema.safeParse({ ...entry, timeZone });
  if (!result.success) return { entry: null, problem: result.error.issues[0]?.message ?? "This entry cannot be added" };
  const { title, company, description, date, type } = result.data;
  return { entry: { ...entry, title, company, description: description ?? "", date, type }, problem: null };
}

/**
 * Reads the uploaded files into the review list: every entry proposed (each once), those that
 * break a rule unticked with the reason, those already on the passport unticked and marked.
 * One D1 round trip, for the keys already imported.
 */
export async function reviewHistory(
  context: ServiceContext,
  userId: string,
  files: HistoryFile[],
  timeZone?: string,
): Promise<HistoryReview> {
  let proposals: HistoryProposal[];
  try {
    proposals = readHistoryFiles(files);
  } catch (error) {
    if (!(error instanceof HistoryFileError)) throw error;
    throw new Refusal({ title: READ_FAILED, description: error.message }, 400, { file: [error.message] });
  }
  const unique = new Map<string, HistoryProposal>();
  for (const proposal of proposals) {
    const key = await importKey(proposal);
    if (!unique.has(key)) unique.set(key, proposal);
  }
  if (unique.size === 0) {
    const description = "This file holds no positions, certifications, honours, courses or education to import.";
    throw new Refusal({ title: READ_FAILED, description }, 400, { file: [description] });
  }
  const entries = [...unique].slice(0, HISTORY_MAX_ITEMS);
  const saved = new Set<string>();
  const queries = savedImportKeysQueries(
    context.db,
    userId,
    entries.map(([key]) => key),
  );
  // With how many entries the passport already holds: the list says before 'Add' when it would not fit.
  const [[held], ...results] = (await context.db.batch([historyEntriesHeldQuery(context.db, userId), ...queries])) as [
    { held: number }[],
    ...{ key: string | null }[][],
  ];
  for (const rows of results) for (const row of rows) if (row.key) saved.add(row.key);
  const items = entries.map(([key, proposal]) => {
    const alreadyAdded = saved.has(key);
    const problem = alreadyAdded ? null : checkEntry({ ...proposal, key }, timeZone).problem;
    return { ...proposal, key, alreadyAdded, problem, selected: !alreadyAdded && !problem };
  });
  const room = Math.max(0, HISTORY_ENTRIES_MAX - (held?.held ?? 0));
  return { items, leftOut: unique.size - entries.length, room, limit: HISTORY_ENTRIES_MAX };
}

/**
 * Adds the ticked entries as the person's own achievements, all in one batch (one D1 round
 * trip), which also counts the attempt under the 'history-import' limit, as reading a file is
 * counted: nothing is added past it, nor past HISTORY_ENTRIES_MAX entries on the passport (issue
 * 43). Each entry's key is computed here from what is stored; one already imported is not added
 * again. Every entry must have passed the rules (`checkEntry`, whose value it is); the caller
 * answers those that did not.
 */
export async function addHistory(context: ServiceContext, userId: string, entries: HistoryEntry[]) {
  const rows = new Map<string, HistoryEntry>();
  for (const entry of entries) rows.set(await importKey(entry), entry);
  const statements = historyImportStatements(
    context.db,
    userId,
    [...rows].map(([key, { title, company, description, date, type }]) => ({
      title,
      company,
      description: description.trim() || null,
      date,
      type,
      submissionKey: key,
    })),
    withinLimitSql("history-import", userSubject(userId)),
  );
  const [counted, verdict, ...inserted] = (await context.db.batch([
    countAttempt(context.db, "history-import", userSubject(userId), Date.now()),
    ...statements,
  ] as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]])) as unknown[][];
  if (!withinLimit("history-import", counted?.[0] as { count: number } | undefined)) {
    throw new Refusal({ title: ADD_FAILED, description: RATE_LIMIT_MESSAGE }, 429);
  }
  if (!verdict?.length) throw new Refusal({ title: ADD_FAILED, description: TOO_MANY }, 400);
  const added = inserted.slice(0, -1).flat().length;
  if (added > 0) await invalidatePassports(context.env, userId);
  return {
    added,
    toast:
      added > 0
        ? ({
            title: "Achievements added",
            description: `${added} ${added === 1 ? "achievement was" : "achievements were"} added to your passport`,
          } satisfies Toast)
        : ({
            title: "Nothing new to add",
            description: "Every entry you ticked is already on your passport.",
          } satisfies Toast),
  };
}
