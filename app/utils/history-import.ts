import type { AchievementType } from "#db/enums.ts";

// The review list of 'Import history' (decision 067), shared by the page and the server.

/** What one upload may weigh in all (the cap for files). */
export const HISTORY_UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
/** The most entries one import proposes (the rest are left for another file). */
export const HISTORY_MAX_ITEMS = 500;

/** An entry as the review list posts it back: the proposal's key and the (maybe edited) fields. */
export type HistoryEntry = {
  key: string;
  /** Where it was read: a LinkedIn file (`Positions.csv`) or a JSON Resume section (`work`). */
  source: string;
  title: string;
  company: string;
  description: string;
  /** YYYY-MM-DD, or "" when the file gave none that could be read. */
  date: string;
  type: AchievementType;
};

/** An entry of the review list as shown: ticked unless it breaks a rule or is already there. */
export type ReviewItem = HistoryEntry & { selected: boolean; problem: string | null; alreadyAdded: boolean };

/**
 * What reading a file proposes: the entries to review, how many were left out over the limit,
 * and how many more entries of imported history the passport has room for, under `limit`.
 */
export type HistoryReview = { items: ReviewItem[]; leftOut: number; room: number; limit: number };

/** An import key: `history:` and 24 characters of a SHA-256 digest (base64url). */
export const HISTORY_KEY_PATTERN = /^history:[A-Za-z0-9_-]{24}$/;

/** Where each source of an import is named in the review list. */
export const SOURCE_LABELS: Record<string, string> = {
  "Positions.csv": "LinkedIn position",
  "Certifications.csv": "LinkedIn certification",
  "Honors.csv": "LinkedIn honour",
  "Courses.csv": "LinkedIn course",
  "Education.csv": "LinkedIn education",
  work: "Work",
  volunteer: "Volunteering",
  education: "Education",
  awards: "Award",
  certificates: "Certificate",
};
