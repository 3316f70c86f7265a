import {
  and,
  count,
  countDistinct,
  desc,
  eq,
  fillPlaceholders,
  getTableColumns,
  inArray,
  isNull,
  type Placeholder,
  sql,
  type SQL,
} from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { AchievementType } from "../schema.ts";
import { inListLimit, insertWhen, rowsPerInsert, statementBuilder, type Db } from "../client.ts";
import {
  achievements,
  credentials,
  importedCredentials,
  LIVE_ACHIEVEMENT_STATUSES,
  organizations,
  profiles,
  type ImportStatus,
} from "../schema.ts";
import { keyset, toPage, type Cursor, type PageRequest } from "./paging.ts";
import { batchPart } from "./batch-parts.ts";
import { issuerIdentityColumns } from "./organization-domains.ts";

/** How a membership entry's title begins (decision 070): 'Member of {organisation}'. */
export const MEMBERSHIP_TITLE_PREFIX = "Member of ";

/**
 * The endorsements one public card carries (decision 079): its first few, with how many it has in
 * all; the rest are on the entry's own endorsements page. A card could otherwise carry every one
 * of its endorsements (up to 500 characters each) on each of up to 50 entries.
 */
export const ENDORSEMENTS_PER_CARD = 3;

const passportColumns = {
  id: achievements.id,
  title: achievements.title,
  description: achievements.description,
  date: achievements.date,
  type: achievements.type,
  imageUrl: achievements.imageUrl,
  videoUrl: achievements.videoUrl,
  // A membership entry (decision 070) names its organisation in its title, which outlives it.
  organizationName: sql<
    string | null
  >`coalesce(${organizations.name}, case when ${achievements.membershipOrganizationId}
    is not null then substr(${achievements.title}, ${MEMBERSHIP_TITLE_PREFIX.length + 1}) end)`,
  isSelf:
    sql<boolean>`(${achievements.organizationId} is null and ${achievements.membershipOrganizationId} is null)`.mapWith(
      Boolean,
    ),
  isMembership: sql<boolean>`(${achievements.membershipOrganizationId} is not null)`.mapWith(Boolean),
  membershipEndedOn: achievements.membershipEndedOn,
  // Expiry and renewal (decision 071): the card says 'Valid until' or 'Expired on', and a
  // renewal its history.
  validUntil: achievements.validUntil,
  renewalCount: achievements.renewalCount,
  firstGivenOn: achievements.firstGivenOn,
  // The Open Badges credential behind an organisation achievement (decision 020); its verified
  // mark shows only with one.
  // Aliased: the passport's batch reads rows as objects, where a second "id" column would
  // overwrite the achievement's.
  credentialId: sql<string | null>`${credentials.id}`.as("credential_id"),
  // Who stands behind the giver's name (decision 055), said on the card of a credential.
  ...issuerIdentityColumns(achievements.organizationId),
  // An imported badge's standing (decision 069): null for any other entry.
  importStatus: sql<ImportStatus | null>`${importedCredentials.status}`.as("import_status"),
  importIssuer: sql<string | null>`${importedCredentials.issuerIdentity}`.as("import_issuer"),
  importRevokedAt: sql<number | null>`${importedCredentials.revokedAt}`.as("import_revoked_at"),
  // The endorsements its owner shows (decision 072): how many, and the first few (oldest first) as
  // a JSON array, null when there are none (decision 079), in the page's one round trip.
  endorsementCount: sql<number>`(select count(*) from endorsements e
    where e.achievement_id = ${achievements.id} and e.status = 'shown')`.as("endorsement_count"),
  endorsementsJson: sql<string | null>`(select case when count(*) > 0 then json_group_array(json_object('id',
    shown.id, 'name', shown.endorser_name, 'comment', shown.comment)) end from (select e.id, e.endorser_name,
    e.comment from endorsements e where e.achievement_id = ${achievements.id} and e.status = 'shown'
    order by e.created_at, e.id limit ${sql.raw(String(ENDORSEMENTS_PER_CARD))}) shown)`.as("endorsements_json"),
  // The rest of the keyset cursor (date, creation, id): newest first, as the passport has always been.
  createdAt: achievements.createdAt,
};

/** A passport entry's place in its list, newest first. */
const passportOrder = [achievements.date, achievements.createdAt];
const passportCursor = (row: { date: string; createdAt: Date; id: string }): Cursor => ({
  key: [row.date, row.createdAt.getTime()],
  id: row.id,
});

/** An achievement whose credential was revoked leaves every passport (its owner's too). */
const notRevoked = sql`${credentials.revokedAt} is null`;
/** An entry whose renewal was accepted is folded into the renewal's history (decision 071): listed once. */
const notRenewed = isNull(achievements.renewedBy);
/** An imported credential its issuer revoked leaves the public passport; its owner still sees it, marked. */
const importNotRevoked = sql`(${importedCredentials.status} is null or ${importedCredentials.status} != 'revoked')`;

/** An entry its owner's passport shows (its statement must join `credentials` and `importedCredentials`). */
export const shownOnPassport = (userId: string | Placeholder) =>
  and(
    eq(achievements.userId, userId),
    eq(achievements.status, "accepted"),
    eq(achievements.isVisible, true),
    notRevoked,
    notRenewed,
    importNotRevoked,
  );

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

/** The personal dashboard: counts and the latest few of the user's live achievements (a batch part). */
export function personalSummaryPart(db: Db, userId: string, recent: number) {
  // Membership entries are not recognition (decision 070): no figure here counts or lists them.
  const live = and(
    eq(achievements.userId, userId),
    inArray(achievements.status, LIVE_ACHIEVEMENT_STATUSES),
    isNull(achievements.membershipOrganizationId),
  );
  return batchPart(
    [
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
    ] as const,
    ([[totals], latest]) => ({ total: totals?.total ?? 0, companies: totals?.companies ?? 0, latest }),
  );
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
  /** Its expiry day (decision 071); none: it never expires. */
  validUntil?: string | null;
};

/** What a renewal copies of the entry it renews (decision 071). */
export type Renewal = { renewsAchievementId: string; renewalCount: number; firstGivenOn: string };

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
  when?: SQL,
) {
  return db
    .update(achievements)
    .set({ status })
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

/**
 * The owner's passport in one round trip: a page of pending offers (newest first), a page of
 * accepted achievements (hidden ones too; by date, newest first) and how many of each there are.
 */
export async function loadOwnAchievements(
  db: Db,
  userId: string,
  pages: { pending: PageRequest; accepted: PageRequest },
) {
  // The owner's list answers endorsements on /passport/endorsements, not on its cards.
  const { endorsementsJson: _, ...ownColumns } = passportColumns;
  const columns = { ...ownColumns, isVisible: achievements.isVisible };
  const pendingWhere = and(eq(achievements.userId, userId), eq(achievements.status, "pending"));
  const acceptedWhere = and(
    eq(achievements.userId, userId),
    eq(achievements.status, "accepted"),
    notRevoked,
    notRenewed,
  );
  const pendingPage = keyset(achievements.createdAt, achievements.id, "desc", pages.pending);
  const acceptedPage = keyset(passportOrder, achievements.id, "desc", pages.accepted);
  const [pending, accepted, [pendingTotal], [acceptedTotal]] = await db.batch([
    db
      .select(columns)
      .from(achievements)
      .leftJoin(organizations, eq(organizations.id, achievements.organizationId))
      .leftJoin(credentials, eq(credentials.achievementId, achievements.id))
      .leftJoin(importedCredentials, eq(importedCredentials.achievementId, achievements.id))
      .where(and(pendingWhere, pendingPage.where))
      .orderBy(...pendingPage.orderBy)
      .limit(pendingPage.limit),
    db
      .select(columns)
      .from(achievements)
      .leftJoin(organizations, eq(organizations.id, achievements.organizationId))
      .leftJoin(credentials, eq(credentials.achievementId, achievements.id))
      .leftJoin(importedCredentials, eq(importedCredentials.achievementId, achievements.id))
      .where(and(acceptedWhere, acceptedPage.where))
      .orderBy(...acceptedPage.orderBy)
      .limit(acceptedPage.limit),
    db.select({ value: count() }).from(achievements).where(pendingWhere),
    db
      .select({ value: count() })
      .from(achievements)
      .leftJoin(credentials, eq(credentials.achievementId, achievements.id))
      .leftJoin(importedCredentials, eq(importedCredentials.achievementId, achievements.id))
      .where(acceptedWhere),
  ]);
  return {
    pending: {
      ...toPage(pending, pages.pending, (row) => ({ key: row.createdAt.getTime(), id: row.id })),
      total: pendingTotal?.value ?? 0,
    },
    accepted: { ...toPage(accepted, pages.accepted, passportCursor), total: acceptedTotal?.value ?? 0 },
  };
}

/**
 * Accepting a renewal folds the entry it renews into its history (decision 071), in the batch
 * that records the answer and only while `when` holds: the older entry leaves the passport lists,
 * and its credential says which one superseded it (it still verifies, as a membership's does).
 */
export function foldRenewedWrites(
  db: Db,
  {
    renewsAchievementId,
    renewalId,
    userId,
    credentialId,
  }: {
    renewsAchievementId: string;
    renewalId: string;
    userId: string;
    credentialId: string | null;
  },
  when: SQL,
) {
  return [
    db
      .update(achievements)
      .set({ renewedBy: renewalId })
      .where(
        and(
          eq(achievements.id, renewsAchievementId),
          eq(achievements.userId, userId),
          isNull(achievements.renewedBy),
          when,
        ),
      ),
    ...(credentialId
      ? [
          db
            .update(credentials)
            .set({ supersededBy: credentialId })
            .where(and(eq(credentials.achievementId, renewsAchievementId), isNull(credentials.supersededBy), when)),
        ]
      : []),
  ];
}

/**
 * What renewing an organisation's entry needs of it (decision 071): what the renewal copies,
 * whether it is the live end of its chain, and the live renewal already given for it (with the
 * form render that gave it, so a double submit is answered as the first).
 */
export function renewableAchievementQuery(db: Db, id: string) {
  const renewal = sql`from ${achievements} as renewal where renewal.renews_achievement_id = ${achievements.id}
    and renewal.status != 'rejected'`;
  return db
    .select({
      id: achievements.id,
      userId: achievements.userId,
      organizationId: achievements.organizationId,
      organizationName: organizations.name,
      title: achievements.title,
      description: achievements.description,
      type: achievements.type,
      imageUrl: achievements.imageUrl,
      videoUrl: achievements.videoUrl,
      date: achievements.date,
      status: achievements.status,
      renewedBy: achievements.renewedBy,
      renewalCount: achievements.renewalCount,
      firstGivenOn: achievements.firstGivenOn,
      revokedAt: credentials.revokedAt,
      liveRenewalId: sql<string | null>`(select renewal.id ${renewal} limit 1)`,
      liveRenewalKey: sql<string | null>`(select renewal.submission_key ${renewal} limit 1)`,
    })
    .from(achievements)
    .leftJoin(organizations, eq(organizations.id, achievements.organizationId))
    .leftJoin(credentials, eq(credentials.achievementId, achievements.id))
    .where(eq(achievements.id, id))
    .limit(1);
}
