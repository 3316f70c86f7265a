import { and, count, eq, fillPlaceholders, type Placeholder, sql } from "drizzle-orm";
import { statementBuilder, type Db } from "../../client.ts";
import { achievements, credentials, importedCredentials, organizations, profiles } from "../../schema.ts";
import { keyset, toPage, type Cursor, type PageRequest } from "../paging.ts";
import { passportColumns, passportCursor, passportOrder, shownOnPassport } from "./card.ts";

// The public passport's reads: its page (one D1 round trip, decision 013), its profile alone, and
// every entry for the print view.

/**
 * The public passport's statements, built (and their SQL written) once per isolate: building them
 * cost more CPU than running them. They are built on `statementBuilder`, which runs nothing, and
 * each visit binds their SQL to its own D1 session (`bound`).
 */
function passportStatements(db: Db) {
  const userId = sql.placeholder("userId");
  const shownEntries = db
    .select({ value: count() })
    .from(achievements)
    .leftJoin(credentials, eq(credentials.achievementId, achievements.id))
    .leftJoin(importedCredentials, eq(importedCredentials.achievementId, achievements.id))
    .where(shownOnPassport(userId));
  // A preview (`loadPassport`): past `over` entries only the `first` are read, in the same
  // statement. drizzle types a LIMIT as a number or a placeholder; it writes any SQL it is given.
  const previewLimit = sql`(select case when (${shownEntries}) > ${sql.placeholder("over")}
    then ${sql.placeholder("first")} else ${sql.placeholder("limit")} end)` as unknown as Placeholder;
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
    // The first page (the common visit); pages after a cursor are built per request.
    entries: passportEntries(db, userId, { size: 0 }).limit(sql.placeholder("limit")).prepare(),
    preview: passportEntries(db, userId, { size: 0 }).limit(previewLimit).prepare(),
    total: shownEntries.prepare(),
  };
}
let builtPassportStatements: ReturnType<typeof passportStatements> | undefined;
const passportStatementsOnce = () => (builtPassportStatements ??= passportStatements(statementBuilder));

/** A built statement's SQL, bound to this request's database with these values. */
const bound = (
  db: Db,
  statement: { getQuery(): { sql: string; params: unknown[] } },
  values: Record<string, unknown>,
) => {
  const query = statement.getQuery();
  return db.$client.prepare(query.sql).bind(...fillPlaceholders(query.params, values));
};

/** One page of a passport's shown entries (keyset, newest first). */
function passportEntries(db: Db, userId: string | Placeholder, page: PageRequest) {
  const { where, orderBy, limit } = keyset(passportOrder, achievements.id, "desc", page);
  return db
    .select(passportColumns)
    .from(achievements)
    .leftJoin(organizations, eq(organizations.id, achievements.organizationId))
    .leftJoin(credentials, eq(credentials.achievementId, achievements.id))
    .leftJoin(importedCredentials, eq(importedCredentials.achievementId, achievements.id))
    .where(and(shownOnPassport(userId), where))
    .orderBy(...orderBy)
    .$dynamic()
    .limit(limit);
}

/**
 * A first page that, on a passport of more than `over` entries, reads only its `first` (the
 * public page shows those and links to the full list; a shorter passport's page reads them all,
 * to print them whole).
 */
export type Preview = { over: number; first: number };

/**
 * Everything a public passport page shows, in one D1 round trip: the profile, one page of the
 * accepted and visible achievements (newest first, after or before a cursor) and how many
 * there are in all. With `preview`, a long passport's first page is its first few entries, and
 * has no `next` (decision 079).
 */
export async function loadPassport(db: Db, userId: string, page: PageRequest, preview?: Preview) {
  const statements = passportStatementsOnce();
  const { profile, total } = statements;
  const entries =
    page.after || page.before
      ? passportEntries(db, userId, page).prepare()
      : preview
        ? statements.preview
        : statements.entries;
  const values = { userId, limit: page.size + 1, ...preview };
  // drizzle's batch() cannot fill placeholders: bind the prepared SQL and map the rows with
  // each statement's own result mapping.
  const [profileResult, entriesResult, totalResult] = await db.$client.batch(
    [profile, entries, total].map((statement) => bound(db, statement, values)),
  );
  const [profileRow] = profile.mapAllResult(profileResult, true) as Awaited<ReturnType<typeof profile.all>>;
  const [totalRow] = total.mapAllResult(totalResult, true) as Awaited<ReturnType<typeof total.all>>;
  if (!profileRow) return null;
  const rows = entries.mapAllResult(entriesResult, true) as Awaited<ReturnType<typeof entries.all>>;
  const { items, next, previous } = toPage(rows, page, passportCursor);
  return { profile: profileRow, achievements: items, next, previous, total: totalRow?.value ?? 0 };
}

/** A passport's profile alone, as loadPassport reads it: for a page whose entries could not be read. */
export async function loadPassportProfile(db: Db, userId: string) {
  const { profile } = passportStatementsOnce();
  const result = await bound(db, profile, { userId }).all();
  const [row] = profile.mapAllResult(result, true) as Awaited<ReturnType<typeof profile.all>>;
  return row ?? null;
}

/**
 * Every shown entry of a passport after `from` (all of them without), for the print view: read a
 * chunk at a time through the same keyset (one bounded query each), so a long career is never
 * cut short and no query is unbounded.
 */
export async function loadAllPassportEntries(db: Db, userId: string, chunk: number, from?: Cursor) {
  const entries: Awaited<ReturnType<typeof loadChunk>> = [];
  const loadChunk = (after: Cursor | undefined) => passportEntries(db, userId, { size: chunk, after }).all();
  let after = from;
  for (;;) {
    const rows = await loadChunk(after);
    entries.push(...rows.slice(0, chunk));
    if (rows.length <= chunk) return entries;
    after = passportCursor(rows[chunk - 1]!);
  }
}
