// One person's memberships: their status in each organisation for the directory, the
// organisations they belong to for the switcher, and their membership ids for an account purge.
import { and, count, eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../client.ts";
import { organizationMembers, organizationRoles, organizations, profiles } from "../../schema.ts";
import { batchPart } from "../batch-parts.ts";
import { keyset, toPage, type PageRequest } from "../paging.ts";
import { strongFactorMissing, strongFactorRequired } from "./authorization.ts";

/**
 * The user's membership status in every organisation they belong to or asked to join (absent:
 * no membership), for the directory's cards: a statement for the page's batch, read through the
 * user's index. A person has one row per organisation they chose, never a table's worth.
 */
export function membershipStatusesPart(db: Db, { userId }: { userId: string }) {
  return batchPart(
    [
      db
        .select({ organizationId: organizationMembers.organizationId, status: organizationMembers.status })
        .from(organizationMembers)
        .where(eq(organizationMembers.userId, userId)),
    ] as const,
    ([rows]): Record<string, string> => Object.fromEntries(rows.map((row) => [row.organizationId, row.status])),
  );
}

/** Every membership of the user (bounded: one per organisation). */
export async function findMembershipIdsOf(db: Db, { userId }: { userId: string }) {
  const rows = await db
    .select({ id: organizationMembers.id })
    .from(organizationMembers)
    .where(eq(organizationMembers.userId, userId))
    .limit(1000);
  return rows.map((row) => row.id);
}

const byName = sql`${organizations.name} collate nocase`;

/**
 * The organisation switcher, as the statements of one batch: a page of the organisations the user
 * is an approved member of (keyset, alphabetical, the id breaking ties), how many there are, and
 * the active one (wherever it falls in the list), with `toResult` to shape their answers. The
 * list is read through the user's memberships (indexed by user) and sorted by name: a person
 * belongs to a few, never to a whole table. `userId` may be an expression (the session's user):
 * the guard reads this in the batch that checks the session (docs/decisions/036).
 */
export function memberOrganizationsRead(db: Db, { userId, page }: { userId: string | SQL<string>; page: PageRequest }) {
  const approved = and(eq(organizationMembers.userId, userId), eq(organizationMembers.status, "approved"));
  const { where, orderBy, limit } = keyset(byName, organizations.id, "asc", page);
  // Whether the person administers each organisation: pages decide admin or member view from it
  // without a read of their own.
  const isAdmin = sql<number>`exists (select 1 from ${organizationRoles} where ${and(
    eq(organizationRoles.userId, userId),
    eq(organizationRoles.organizationId, organizations.id),
    eq(organizationRoles.role, "admin"),
  )})`.mapWith(Boolean);
  // And whether the organisation holds them back as its admin until they set up a strong factor
  // (decision 062): admin pages and actions refuse them from it, again without a read of their own.
  const columns = {
    id: organizations.id,
    name: organizations.name,
    isAdmin,
    strongFactorMissing: strongFactorMissing(userId),
    // And whether it asks its admins' sessions for one: the guard compares how this one signed in.
    strongFactorRequired: strongFactorRequired(),
  };
  const pageRows = db
    .select(columns)
    .from(organizationMembers)
    .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
    .where(and(approved, where))
    .orderBy(...orderBy)
    .limit(limit);
  const total = db.select({ value: count() }).from(organizationMembers).where(approved);
  const active = db
    .select(columns)
    .from(profiles)
    .innerJoin(organizationMembers, eq(organizationMembers.organizationId, profiles.activeOrganizationId))
    .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
    .where(and(eq(profiles.id, userId), approved))
    .limit(1);
  return {
    statements: [pageRows, total, active] as const,
    toResult: ([rows, [totalRow], [activeRow]]: [
      Awaited<typeof pageRows>,
      Awaited<typeof total>,
      Awaited<typeof active>,
    ]) => ({
      ...toPage(rows, page, (row) => ({ key: row.name, id: row.id })),
      total: totalRow?.value ?? 0,
      active: activeRow ?? null,
    }),
  };
}

export type MemberOrganizations = ReturnType<ReturnType<typeof memberOrganizationsRead>["toResult"]>;
