import { and, count, eq, getTableColumns, inArray, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { AchievementType, CredentialDue } from "../../schema.ts";
import { D1_MAX_BOUND_PARAMETERS, inListLimit, insertRowsWhen, insertWhen, type Db } from "../../client.ts";
import { achievements, LIVE_ACHIEVEMENT_STATUSES, rateLimits } from "../../schema.ts";
import type { Renewal } from "./renewals.ts";

// Writing achievements (given by an organisation, added by a person, imported, answered, shown or
// hidden) and the reads that guard those writes.

export type NewAchievement = {
  title: string;
  description: string | null;
  date: string;
  type: AchievementType;
  imageUrl?: string | null;
  videoUrl?: string | null;
  /** The form render's idempotency key (decision 012). */
  submissionKey?: string | null;
  /** Its expiry day (decision 071); none: it never expires. */
  validUntil?: string | null;
};

/**
 * An organisation's achievement offered to a member (pending until they accept), as a statement
 * for the batch that also announces it, written only while `allowed` holds (`mayGive`). Nothing
 * is written either for a submission already saved (its key is unique); the batch then has no
 * achievement with this `id`, which `achievementExists` tells the announcement.
 */
export function givenAchievementInsert(
  db: Db,
  input: NewAchievement & { id: string; userId: string; organizationId: string; createdBy: string } & Partial<Renewal>,
  allowed: SQL,
) {
  return insertWhen(db, achievements, { ...input, status: "pending", isVisible: true }, allowed)
    .onConflictDoNothing()
    .returning({ id: achievements.id });
}

/** The achievement a form render already saved (decision 012), found by its submission key. */
export function savedSubmissionQuery(
  db: Db,
  { createdBy, userId, submissionKey }: { createdBy: string; userId: string; submissionKey: string },
) {
  return db
    .select({ id: achievements.id })
    .from(achievements)
    .where(
      and(
        eq(achievements.createdBy, createdBy),
        eq(achievements.userId, userId),
        eq(achievements.submissionKey, submissionKey),
      ),
    )
    .limit(1);
}

/** Holds once the achievement exists (for a write in the same batch that announces it). */
export const achievementExists = (id: string) =>
  sql`exists (select 1 from ${achievements} where ${achievements.id} = ${id})`;

/** A person's own achievement as stored: "title - company", no organisation, accepted at once. */
function selfAchievementRow(userId: string, { company, ...rest }: NewAchievement & { company: string }) {
  return {
    ...rest,
    title: `${rest.title} - ${company}`,
    userId,
    createdBy: userId,
    organizationId: null,
    status: "accepted" as const,
    isVisible: true,
  };
}

/** A person's own achievement (one form's) under `id`, as a statement; it returns no row when already saved. */
export function selfAchievementInsert(db: Db, userId: string, input: NewAchievement & { company: string }, id: string) {
  return db
    .insert(achievements)
    .values({ ...selfAchievementRow(userId, input), id })
    .onConflictDoNothing()
    .returning({ id: achievements.id });
}

/** The most entries of imported history one person holds (issue 43). */
export const HISTORY_ENTRIES_MAX = 2000;

/** The person's own entries of imported history, through the unique index (creator, recipient, key). */
const historyEntriesOf = (userId: string) => sql`${achievements.createdBy} = ${userId}
    and ${achievements.userId} = ${userId} and ${achievements.submissionKey} >= 'history:'
    and ${achievements.submissionKey} < 'history;'`;

/** How many entries of imported history the person holds (a statement for a batch). */
export function historyEntriesHeldQuery(db: Db, userId: string) {
  return db.select({ held: count() }).from(achievements).where(historyEntriesOf(userId));
}

// Each chunk binds its rows and the verdict's key.
const HISTORY_ROWS_PER_INSERT = Math.floor(
  (D1_MAX_BOUND_PARAMETERS - 1) / Object.keys(getTableColumns(achievements)).length,
);

/**
 * An imported history added in one batch, as its statements, each only while `allowed` (the
 * caller's rate limit, counted earlier in the same batch) holds and the person would hold at most
 * HISTORY_ENTRIES_MAX history entries after it (issue 43). Both are judged once, by the first
 * statement, which writes a verdict row that each insert checks and the last statement removes:
 * so the whole list is added or none of it, within the one transaction. The results: the verdict
 * (`{ key }[]`, empty when refused), then each chunk's new ids (`{ id: string }[]`), then the
 * verdict's removal.
 */
export function historyImportStatements(
  db: Db,
  userId: string,
  inputs: (NewAchievement & { company: string; submissionKey: string })[],
  allowed: SQL,
) {
  const verdict = `history-add:${userId}:${crypto.randomUUID()}`;
  const keys = JSON.stringify(inputs.map((input) => input.submissionKey));
  // The person's history entries but those this list names (added now or before): with the list,
  // what they will hold. Read through the unique index (creator, recipient, key).
  const others = sql`(select count(*) from ${achievements} where ${historyEntriesOf(userId)}
    and ${achievements.submissionKey} not in (select value from json_each(${keys})))`;
  const statements: BatchItem<"sqlite">[] = [
    insertWhen(
      db,
      rateLimits,
      { key: verdict, count: 1, lastRequest: Date.now() },
      sql`${allowed} and ${others} + ${inputs.length} <= ${HISTORY_ENTRIES_MAX}`,
    ).returning({ key: rateLimits.key }),
  ];
  const holds = sql`exists (select 1 from ${rateLimits} where ${rateLimits.key} = ${verdict})`;
  const createdAt = new Date();
  for (let start = 0; start < inputs.length; start += HISTORY_ROWS_PER_INSERT) {
    const rows = inputs.slice(start, start + HISTORY_ROWS_PER_INSERT).map((input) => ({
      id: crypto.randomUUID(),
      createdAt,
      imageUrl: null,
      videoUrl: null,
      ...selfAchievementRow(userId, input),
    }));
    statements.push(
      insertRowsWhen(db, achievements, rows, holds).onConflictDoNothing().returning({ id: achievements.id }),
    );
  }
  statements.push(db.delete(rateLimits).where(eq(rateLimits.key, verdict)));
  return statements;
}

// The person's id twice (recipient and creator) besides the keys.
const KEYS_PER_QUERY = inListLimit(2);

/** Which of these import keys the person's passport already holds, as statements for one batch. */
export function savedImportKeysQueries(db: Db, userId: string, keys: string[]) {
  // Each returns `{ key: string | null }[]`.
  const statements: BatchItem<"sqlite">[] = [];
  for (let start = 0; start < keys.length; start += KEYS_PER_QUERY) {
    statements.push(
      db
        .select({ key: achievements.submissionKey })
        .from(achievements)
        .where(
          and(
            eq(achievements.createdBy, userId),
            eq(achievements.userId, userId),
            inArray(achievements.submissionKey, keys.slice(start, start + KEYS_PER_QUERY)),
          ),
        ),
    );
  }
  return statements;
}

/** How many live achievements the organisation has given the person (a statement for a batch). */
export function countAchievementsFromQuery(
  db: Db,
  { userId, organizationId }: { userId: string; organizationId: string },
) {
  return db
    .select({ value: count() })
    .from(achievements)
    .where(
      and(
        eq(achievements.organizationId, organizationId),
        eq(achievements.userId, userId),
        inArray(achievements.status, LIVE_ACHIEVEMENT_STATUSES),
      ),
    );
}

export function findAchievement(db: Db, id: string) {
  return db.query.achievements.findFirst({
    where: eq(achievements.id, id),
    columns: { id: true, userId: true, organizationId: true, createdBy: true, status: true, title: true },
  });
}

const isPendingFor = (id: string, userId: string) =>
  and(eq(achievements.id, id), eq(achievements.userId, userId), eq(achievements.status, "pending"));

/**
 * The recipient's answer to a pending achievement, as a statement for a batch (a row back when
 * this answer changed it; answering twice changes nothing), only while `when` also holds.
 */
export function answerAchievementUpdate(
  db: Db,
  id: string,
  userId: string,
  status: "accepted" | "rejected",
  { when, credentialDue }: { when?: SQL; credentialDue?: CredentialDue } = {},
) {
  return db
    .update(achievements)
    .set({ status, credentialDue })
    .where(and(isPendingFor(id, userId), when))
    .returning({ id: achievements.id });
}

/** Holds while the achievement still awaits its recipient's answer (for a write announcing it). */
export const isAwaitingAnswer = (id: string, userId: string) =>
  sql`exists (select 1 from ${achievements} where ${isPendingFor(id, userId)})`;

/** The owner shows or hides one of their accepted achievements on the public passport. */
export async function setAchievementVisibility(db: Db, id: string, userId: string, visible: boolean) {
  const rows = await db
    .update(achievements)
    .set({ isVisible: visible })
    .where(and(eq(achievements.id, id), eq(achievements.userId, userId), eq(achievements.status, "accepted")))
    .returning({ id: achievements.id });
  return rows.length > 0;
}
