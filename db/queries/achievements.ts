import { and, count, countDistinct, desc, eq, fillPlaceholders, inArray, type Placeholder, sql } from "drizzle-orm";
import type { AchievementType } from "../schema.ts";
import type { Db } from "../client.ts";
import { achievements, credentials, LIVE_ACHIEVEMENT_STATUSES, organizations, profiles } from "../schema.ts";

/** Upper bound on one list, so no query loads a whole table. */
export const MAX_LISTED_ACHIEVEMENTS = 500;

const passportColumns = {
  id: achievements.id,
  title: achievements.title,
  description: achievements.description,
  date: achievements.date,
  type: achievements.type,
  imageUrl: achievements.imageUrl,
  videoUrl: achievements.videoUrl,
  organizationName: organizations.name,
  isSelf: sql<boolean>`${achievements.organizationId} is null`.mapWith(Boolean),
  // The Open Badges credential behind an organisation achievement (decision 020); its verified
  // mark shows only with one.
  // Aliased: the passport's batch reads rows as objects, where a second "id" column would
  // overwrite the achievement's.
  credentialId: sql<string | null>`${credentials.id}`.as("credential_id"),
};

/** An achievement whose credential was revoked leaves every passport (its owner's too). */
const notRevoked = sql`${credentials.revokedAt} is null`;

const shownOnPassport = (userId: string | Placeholder) =>
  and(
    eq(achievements.userId, userId),
    eq(achievements.status, "accepted"),
    eq(achievements.isVisible, true),
    notRevoked,
  );

/**
 * The public passport's three statements, built (and their SQL written) once per database
 * client rather than on every visit: building them cost more CPU than running them.
 */
function passportStatements(db: Db) {
  const userId = sql.placeholder("userId");
  return {
    profile: db
      .select({
        fullName: profiles.fullName,
        bio: profiles.bio,
        avatarUrl: profiles.avatarUrl,
        introVideoUrl: profiles.introVideoUrl,
        introVideoThumbnailUrl: profiles.introVideoThumbnailUrl,
        isPublic: profiles.isPublic,
        searchIndexing: profiles.searchIndexing,
        deletedAt: profiles.deletedAt,
      })
      .from(profiles)
      .where(eq(profiles.id, userId))
      .limit(1)
      .prepare(),
    entries: db
      .select(passportColumns)
      .from(achievements)
      .leftJoin(organizations, eq(organizations.id, achievements.organizationId))
      .leftJoin(credentials, eq(credentials.achievementId, achievements.id))
      .where(shownOnPassport(userId))
      .orderBy(desc(achievements.date), desc(achievements.createdAt))
      .limit(sql.placeholder("limit"))
      .prepare(),
    total: db
      .select({ value: count() })
      .from(achievements)
      .leftJoin(credentials, eq(credentials.achievementId, achievements.id))
      .where(shownOnPassport(userId))
      .prepare(),
  };
}
const passportStatementsByDb = new WeakMap<Db, ReturnType<typeof passportStatements>>();

/**
 * Everything a public passport shows, in one D1 round trip: the profile, the first `limit`
 * accepted and visible achievements (newest first) and how many there are in all.
 */
export async function loadPassport(db: Db, userId: string, limit: number) {
  let statements = passportStatementsByDb.get(db);
  if (!statements) passportStatementsByDb.set(db, (statements = passportStatements(db)));
  const { profile, entries, total } = statements;
  const values = { userId, limit: Math.min(limit, MAX_LISTED_ACHIEVEMENTS) };
  // drizzle's batch() cannot fill placeholders: bind the prepared SQL and map the rows with
  // each statement's own result mapping.
  const bound = [profile, entries, total].map((statement) => {
    const query = statement.getQuery();
    return db.$client.prepare(query.sql).bind(...fillPlaceholders(query.params, values));
  });
  const [profileResult, entriesResult, totalResult] = await db.$client.batch(bound);
  const [profileRow] = profile.mapAllResult(profileResult, true) as Awaited<ReturnType<typeof profile.all>>;
  const [totalRow] = total.mapAllResult(totalResult, true) as Awaited<ReturnType<typeof total.all>>;
  if (!profileRow) return null;
  return {
    profile: profileRow,
    achievements: entries.mapAllResult(entriesResult, true) as Awaited<ReturnType<typeof entries.all>>,
    total: totalRow?.value ?? 0,
  };
}

/** The personal dashboard: counts and the latest few of the user's live achievements. */
export async function loadPersonalSummary(db: Db, userId: string, recent: number) {
  const live = and(eq(achievements.userId, userId), inArray(achievements.status, LIVE_ACHIEVEMENT_STATUSES));
  const [[totals], latest] = await db.batch([
    db
      .select({ total: count(), companies: countDistinct(achievements.organizationId) })
      .from(achievements)
      .where(live),
    db
      .select({
        id: achievements.id,
        title: achievements.title,
        description: achievements.description,
        date: achievements.date,
        organizationName: organizations.name,
      })
      .from(achievements)
      .leftJoin(organizations, eq(organizations.id, achievements.organizationId))
      .where(live)
      .orderBy(desc(achievements.date), desc(achievements.createdAt))
      .limit(recent),
  ]);
  return { total: totals?.total ?? 0, companies: totals?.companies ?? 0, latest };
}

export type NewAchievement = {
  title: string;
  description: string | null;
  date: string;
  type: AchievementType;
  imageUrl?: string | null;
  videoUrl?: string | null;
  /** The form render's idempotency key (decision 012). */
  submissionKey?: string | null;
};

/**
 * An organisation's recognition: pending until the recipient accepts, visible once accepted.
 * Null when this form render was already saved (the same submission key): nothing is added.
 */
/**
 * An organisation's achievement offered to a member, as a statement for the batch that also
 * announces it. Nothing is written for a submission already saved (its key is unique); the row
 * then has no achievement with this `id`, which `achievementExists` tells the announcement.
 */
export function givenAchievementInsert(
  db: Db,
  input: NewAchievement & { id: string; userId: string; organizationId: string; createdBy: string },
) {
  return db
    .insert(achievements)
    .values({ ...input, status: "pending", isVisible: true })
    .onConflictDoNothing()
    .returning({ id: achievements.id });
}

/** Holds once the achievement exists (for a write in the same batch that announces it). */
export const achievementExists = (id: string) =>
  sql`exists (select 1 from ${achievements} where ${achievements.id} = ${id})`;

/** A person's own achievement: stored as "title - company", no organisation, accepted at once. Null when already saved. */
export async function insertSelfAchievement(db: Db, userId: string, input: NewAchievement & { company: string }) {
  const { company, ...rest } = input;
  const [row] = await db
    .insert(achievements)
    .values({
      ...rest,
      title: `${rest.title} - ${company}`,
      userId,
      createdBy: userId,
      organizationId: null,
      status: "accepted",
      isVisible: true,
    })
    .onConflictDoNothing()
    .returning({ id: achievements.id });
  return row?.id ?? null;
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
 * this answer changed it; answering twice changes nothing).
 */
export function answerAchievementUpdate(db: Db, id: string, userId: string, status: "accepted" | "rejected") {
  return db.update(achievements).set({ status }).where(isPendingFor(id, userId)).returning({ id: achievements.id });
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

/** The owner's passport: pending offers and every accepted achievement (hidden ones too). */
export async function loadOwnAchievements(db: Db, userId: string) {
  const columns = { ...passportColumns, isVisible: achievements.isVisible };
  const [pending, accepted] = await db.batch([
    db
      .select(columns)
      .from(achievements)
      .leftJoin(organizations, eq(organizations.id, achievements.organizationId))
      .leftJoin(credentials, eq(credentials.achievementId, achievements.id))
      .where(and(eq(achievements.userId, userId), eq(achievements.status, "pending")))
      .orderBy(desc(achievements.createdAt))
      .limit(MAX_LISTED_ACHIEVEMENTS),
    db
      .select(columns)
      .from(achievements)
      .leftJoin(organizations, eq(organizations.id, achievements.organizationId))
      .leftJoin(credentials, eq(credentials.achievementId, achievements.id))
      .where(and(eq(achievements.userId, userId), eq(achievements.status, "accepted"), notRevoked))
      .orderBy(desc(achievements.date), desc(achievements.createdAt))
      .limit(MAX_LISTED_ACHIEVEMENTS),
  ]);
  return { pending, accepted };
}
