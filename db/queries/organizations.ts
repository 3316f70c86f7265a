import { and, count, eq, notInArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Db } from "../client.ts";
import { NAME_KEY_PREFIX, organizationNameKey } from "./name-key.ts";
import { keyset, toPage, type PageRequest } from "./paging.ts";
import { batchPart } from "./batch-parts.ts";
import { issuerIdentityColumns } from "./organization-domains.ts";
import { administeredOrganizationIds, membershipQuery } from "./memberships/authorization.ts";
import { founderMembershipStatements } from "./memberships/writes.ts";
import { membershipRemovals, newInviteCode, organizationDomains, organizations, profiles } from "../schema.ts";

export { organizationNameKey };

const byName = sql`${organizations.name} collate nocase`;

export function findOrganization(db: Db, organizationId: string) {
  return db.query.organizations.findFirst({
    where: eq(organizations.id, organizationId),
    columns: { id: true, name: true, description: true },
  });
}

/**
 * What the invite page needs in one round trip: the organisation, whether the code opens it, and
 * (for a signed-in visitor) their membership and whether an admin removed or rejected them.
 */
export async function loadInvite(db: Db, organizationId: string, code: string | null, userId: string | null) {
  const [[organization], [membership], [removal]] = await db.batch([
    db
      .select({ id: organizations.id, name: organizations.name, inviteCode: organizations.inviteCode })
      .from(organizations)
      .where(eq(organizations.id, organizationId))
      .limit(1),
    membershipQuery(db, { userId: userId ?? "", organizationId }),
    db
      .select({ userId: membershipRemovals.userId })
      .from(membershipRemovals)
      .where(and(eq(membershipRemovals.userId, userId ?? ""), eq(membershipRemovals.organizationId, organizationId)))
      .limit(1),
  ]);
  if (!organization) return null;
  const { inviteCode, ...shown } = organization;
  return {
    organization: shown,
    membership: membership ?? null,
    // A removed or rejected person's old code opens nothing: they ask again like anyone else.
    codeAdmits: code !== null && sameSecret(code, inviteCode) && !removal,
  };
}

/** Constant-time comparison, so response timing says nothing about how much of a code matched. */
function sameSecret(given: string, expected: string) {
  const a = new TextEncoder().encode(given);
  const b = new TextEncoder().encode(expected);
  let difference = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) difference |= (a[i] ?? 0) ^ b[i]!;
  return difference === 0;
}

/** 'Reset link': a new code; the old link stops admitting anyone at once. */
export async function resetInviteCode(db: Db, organizationId: string) {
  await db.update(organizations).set({ inviteCode: newInviteCode() }).where(eq(organizations.id, organizationId));
}

/** Whether the organisation asks its admins for a strong factor (decision 062). */
export async function setRequireTwoFactor(db: Db, organizationId: string, requireTwoFactor: boolean) {
  await db.update(organizations).set({ requireTwoFactor }).where(eq(organizations.id, organizationId));
}

/**
 * Re-makes up to `limit` stored keys of organisations and of their verified domains made by an
 * earlier `organizationNameKey` (the daily cron: SQL cannot compute a skeleton). Returns how many.
 */
export async function rekeyOrganizationNames(db: Db, limit: number) {
  const stale = (column: SQLiteColumn) =>
    sql`(${column} is null or substr(${column}, 1, ${NAME_KEY_PREFIX.length}) <> ${NAME_KEY_PREFIX})`;
  const [ownKeys, domainKeys] = await db.batch([
    db
      .select({ id: organizations.id, name: organizations.name })
      .from(organizations)
      .where(stale(organizations.nameKey))
      .limit(limit),
    db
      .select({ id: organizationDomains.id, name: organizations.name })
      .from(organizationDomains)
      .innerJoin(organizations, eq(organizations.id, organizationDomains.organizationId))
      .where(and(eq(organizationDomains.status, "verified"), stale(organizationDomains.nameKey)))
      .limit(limit),
  ]);
  const updates: BatchItem<"sqlite">[] = [
    ...ownKeys.map((row) =>
      db
        .update(organizations)
        .set({ nameKey: organizationNameKey(row.name) })
        .where(eq(organizations.id, row.id)),
    ),
    ...domainKeys.map((row) =>
      db
        .update(organizationDomains)
        .set({ nameKey: organizationNameKey(row.name) })
        .where(eq(organizationDomains.id, row.id)),
    ),
  ];
  if (updates.length) await db.batch(updates as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  return updates.length;
}

/** The statements that create an organisation with its creator as admin and approved member. */
/**
 * A new organisation, its founder as admin and member, and their active organisation: once per
 * submission key (a resent form finds the organisation its first send made and writes nothing).
 */
export async function createOrganization(
  db: Db,
  userId: string,
  input: { name: string; description: string | null; submissionKey: string | null },
) {
  const organizationId = crypto.randomUUID();
  const created = sql`exists (select 1 from ${organizations} where ${organizations.id} = ${organizationId})`;
  await db.batch([
    db
      .insert(organizations)
      .values({
        id: organizationId,
        name: input.name,
        nameKey: organizationNameKey(input.name),
        description: input.description,
        createdBy: userId,
        submissionKey: input.submissionKey,
      })
      .onConflictDoNothing(),
    ...founderMembershipStatements(db, { userId, organizationId }, created),
    db
      .update(profiles)
      .set({ activeOrganizationId: organizationId })
      .where(and(eq(profiles.id, userId), created)),
  ]);
}

const directoryColumns = {
  id: organizations.id,
  name: organizations.name,
  description: organizations.description,
  // A verified domain beside the name, or "Name not verified" beside an impostor's (decision 055).
  ...issuerIdentityColumns(),
};
const directoryCursor = (row: { name: string; id: string }) => ({ key: row.name, id: row.id });

/** One page of every organisation, alphabetical, with how many there are: a part of a page's batch. */
export function allOrganizationsPart(db: Db, page: PageRequest) {
  const { where, orderBy, limit } = keyset(byName, organizations.id, "asc", page);
  return batchPart(
    [
      db
        .select(directoryColumns)
        .from(organizations)
        .where(where)
        .orderBy(...orderBy)
        .limit(limit),
      db.select({ value: count() }).from(organizations),
    ] as const,
    ([rows, [total]]) => ({ ...toPage(rows, page, directoryCursor), total: total?.value ?? 0 }),
  );
}

/**
 * One page of a case-insensitive partial match on the name, alphabetical, leaving out
 * organisations the user administers, with how many match: a part of a page's batch.
 */
export function organizationSearchPart(db: Db, userId: string, term: string, page: PageRequest) {
  const administered = administeredOrganizationIds(db, { userId });
  // A substring match, case-insensitive for ASCII as LIKE was. Not LIKE: D1 caps LIKE patterns
  // at 50 bytes ("pattern too complex", a 500 for any longer search), and instr() has no
  // wildcards to escape.
  const matches = and(
    sql`instr(lower(${organizations.name}), lower(${term})) > 0`,
    notInArray(organizations.id, administered),
  );
  const { where, orderBy, limit } = keyset(byName, organizations.id, "asc", page);
  return batchPart(
    [
      db
        .select(directoryColumns)
        .from(organizations)
        .where(and(matches, where))
        .orderBy(...orderBy)
        .limit(limit),
      db.select({ value: count() }).from(organizations).where(matches),
    ] as const,
    ([rows, [total]]) => ({ ...toPage(rows, page, directoryCursor), total: total?.value ?? 0 }),
  );
}
