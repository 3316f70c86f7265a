import { and, count, eq, getTableColumns, inArray, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { AchievementType, CredentialDue } from "../../schema.ts";
import { inListLimit, insertWhen, rowsPerInsert, type Db } from "../../client.ts";
import { achievements, LIVE_ACHIEVEMENT_STATUSES } from "../../schema.ts";
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

// Every column of an achievement is bound (defaults too: drizzle binds them as values), so the
// rows per INSERT follow the table: a column added later cannot push a statement past D1's limit.
const SELF_ACHIEVEMENTS_PER_INSERT = rowsPerInsert(Object.keys(getTableColumns(achievements)).length);

/**
 * Many of a person's own achievements at once (an imported history), as statements for one
 * batch, each within D1's 100 parameters. Each row's `submissionKey` is its import key: a row
 * already imported is left as it is (the unique index), so each statement returns only the new.
 */
export function selfAchievementsInserts(
  db: Db,
  userId: string,
  inputs: (NewAchievement & { company: string; submissionKey: string })[],
) {
  // Each returns the ids it wrote: `{ id: string }[]`.
  const statements: BatchItem<"sqlite">[] = [];
  for (let start = 0; start < inputs.length; start += SELF_ACHIEVEMENTS_PER_INSERT) {
    const rows = inputs.slice(start, start + SELF_ACHIEVEMENTS_PER_INSERT).map((input) => ({
      id: crypto.randomUUID(),
      createdAt: new Date(),
      imageUrl: null,
      videoUrl: null,
      ...selfAchievementRow(userId, input),
    }));
    statements.push(db.insert(achievements).values(rows).onConflictDoNothing().returning({ id: achievements.id }));
  }
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
