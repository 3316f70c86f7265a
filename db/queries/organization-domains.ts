import { and, asc, eq, getTableName, lte, ne, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Db } from "../client.ts";
import { organizationDomains, organizationRoles, organizations, profiles, users } from "../schema.ts";

/** Domains an organisation may claim at once: a few brands, not a zone file. */
export const MAX_DOMAINS_PER_ORGANIZATION = 10;
/** Due domains read at a time by the daily check. */
export const DUE_DOMAINS_PAGE = 500;

const claimColumns = {
  id: organizationDomains.id,
  organizationId: organizationDomains.organizationId,
  domain: organizationDomains.domain,
  token: organizationDomains.token,
  status: organizationDomains.status,
  verifiedAt: organizationDomains.verifiedAt,
  lastCheckedAt: organizationDomains.lastCheckedAt,
  failedChecks: organizationDomains.failedChecks,
};
export type DomainClaim = {
  id: string;
  organizationId: string;
  domain: string;
  token: string;
  status: "pending" | "verified" | "lapsed";
  verifiedAt: Date | null;
  lastCheckedAt: Date | null;
  failedChecks: number;
};

export function listDomainClaims(db: Db, organizationId: string): Promise<DomainClaim[]> {
  return db
    .select(claimColumns)
    .from(organizationDomains)
    .where(eq(organizationDomains.organizationId, organizationId))
    .orderBy(asc(organizationDomains.createdAt), asc(organizationDomains.domain))
    .limit(MAX_DOMAINS_PER_ORGANIZATION);
}

export async function findDomainClaim(db: Db, organizationId: string, id: string): Promise<DomainClaim | null> {
  const [claim] = await db
    .select(claimColumns)
    .from(organizationDomains)
    .where(and(eq(organizationDomains.id, id), eq(organizationDomains.organizationId, organizationId)))
    .limit(1);
  return claim ?? null;
}

/** Adds the claim unless the organisation has it already; says whether it was added. */
export async function insertDomainClaim(db: Db, claim: { organizationId: string; domain: string; token: string }) {
  const inserted = await db
    .insert(organizationDomains)
    .values(claim)
    .onConflictDoNothing()
    .returning({ id: organizationDomains.id });
  return inserted.length > 0;
}

export async function deleteDomainClaim(db: Db, organizationId: string, id: string) {
  await db
    .delete(organizationDomains)
    .where(and(eq(organizationDomains.id, id), eq(organizationDomains.organizationId, organizationId)));
}

/**
 * Marks a claim verified, with the organisation's name key of now. False when another
 * organisation verified the same domain first (the partial unique index refused it).
 */
export async function markDomainVerified(
  db: Db,
  id: string,
  { nameKey, now, nextCheckAt }: { nameKey: string; now: Date; nextCheckAt: Date },
) {
  try {
    await db
      .update(organizationDomains)
      .set({ status: "verified", nameKey, verifiedAt: now, lastCheckedAt: now, failedChecks: 0, nextCheckAt })
      .where(eq(organizationDomains.id, id));
    return true;
  } catch (error) {
    if (String((error as Error)?.message ?? error).includes("UNIQUE")) return false;
    throw error;
  }
}

/** The outcome of a verified domain's daily check; the third failure in a row lapses it. */
export async function recordDomainCheck(
  db: Db,
  id: string,
  outcome:
    { passed: true; now: Date; nextCheckAt: Date } | { passed: false; now: Date; nextCheckAt: Date; lapse: boolean },
) {
  await db
    .update(organizationDomains)
    .set(
      outcome.passed
        ? { lastCheckedAt: outcome.now, failedChecks: 0, nextCheckAt: outcome.nextCheckAt }
        : {
            lastCheckedAt: outcome.now,
            failedChecks: sql`${organizationDomains.failedChecks} + 1`,
            nextCheckAt: outcome.lapse ? null : outcome.nextCheckAt,
            ...(outcome.lapse ? { status: "lapsed" as const } : {}),
          },
    )
    .where(and(eq(organizationDomains.id, id), eq(organizationDomains.status, "verified")));
}

/** The verified domains due for their daily check, oldest due first (a partial index range). */
export function dueDomainClaims(db: Db, now: Date, limit = DUE_DOMAINS_PAGE) {
  return db
    .select({ ...claimColumns, organizationName: organizations.name })
    .from(organizationDomains)
    .innerJoin(organizations, eq(organizations.id, organizationDomains.organizationId))
    .where(and(eq(organizationDomains.status, "verified"), lte(organizationDomains.nextCheckAt, now)))
    .orderBy(asc(organizationDomains.nextCheckAt))
    .limit(limit);
}

/** An imported credential's issuer, as its row records it (issue 43): the columns of `imported_credentials`. */
type ImportedIssuer = {
  organizationId: SQLiteColumn;
  domain: SQLiteColumn;
  checkedAt: SQLiteColumn;
  nameKey: SQLiteColumn;
};

// Spelled out with its table: drizzle renders a column inside some nested sql without one, which
// a correlated subquery then reads as its own.
const qualified = (column: SQLiteColumn) => sql.raw(`"${getTableName(column.table)}"."${column.name}"`);

/** The organisation's first verified domain's row, as `(select d.{column} …)` reads it. */
const verifiedDomainFrom = (organizationId: SQL) =>
  sql`from organization_domains d where d.organization_id = ${organizationId} and d.status = 'verified' order by d.verified_at limit 1`;

/** The first verified domain of the organisation whose id `organizationId` is (SQL), or null: a scalar subquery. */
export const verifiedDomainOf = (organizationId: SQL) =>
  sql<string | null>`(select d.domain ${verifiedDomainFrom(organizationId)})`;

/**
 * Who stands behind an organisation's name, as SQL columns of a query over `organizations` or
 * `achievements` (given the organisation id's column), so that a directory page, a passport or a
 * credential reads it in the round trip of the rest: the organisation's first verified domain,
 * when that was last checked, and whether another organisation with a verified domain has the
 * same name key. Aliased, as a batch reads rows as objects. app/utils/issuer-identity.ts reads them.
 *
 * With `imported` (a passport's entries, issue 43), an imported credential's issuer is read the
 * same way: one of our organisations by the id its row records, else the domain its DID
 * configuration linked at the last check; its name is marked when an organisation with a
 * verified domain has the same name key (through that index, one lookup per entry).
 */
export function issuerIdentityColumns(
  organizationIdColumn: SQLiteColumn = organizations.id,
  imported?: ImportedIssuer,
) {
  const organizationId = imported
    ? sql`coalesce(${qualified(organizationIdColumn)}, ${qualified(imported.organizationId)})`
    : qualified(organizationIdColumn);
  const verified = verifiedDomainFrom(organizationId);
  const orImported = (own: SQL, column: SQLiteColumn | undefined) =>
    column ? sql`coalesce(${own}, ${qualified(column)})` : own;
  const sameNameImported = imported
    ? sql` or exists(select 1 from organization_domains d
        where d.status = 'verified' and d.name_key = ${qualified(imported.nameKey)})`
    : sql``;
  return {
    issuerDomain: sql<string | null>`${orImported(sql`(select d.domain ${verified})`, imported?.domain)}`.as(
      "issuer_domain",
    ),
    issuerCheckedAt: sql<
      number | null
    >`${orImported(sql`(select d.last_checked_at ${verified})`, imported?.checkedAt)}`.as("issuer_checked_at"),
    issuerNameNotVerified: sql<number>`(exists(select 1 from organization_domains d
      join organizations o on o.id = ${organizationId}
      where d.status = 'verified' and d.organization_id <> o.id
        and d.name_key = coalesce(o.name_key, lower(trim(o.name))))${sameNameImported})`.as("issuer_name_not_verified"),
  };
}

/** The identity columns of one organisation; null when it no longer exists. */
export async function findIssuerIdentity(db: Db, organizationId: string) {
  const [row] = await db
    .select(issuerIdentityColumns())
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .limit(1);
  return row ?? null;
}

/** Whether any other organisation than `organizationId` has `domain` verified. */
export async function domainVerifiedElsewhere(db: Db, organizationId: string, domain: string) {
  const [row] = await db
    .select({ id: organizationDomains.id })
    .from(organizationDomains)
    .where(
      and(
        eq(organizationDomains.domain, domain),
        eq(organizationDomains.status, "verified"),
        ne(organizationDomains.organizationId, organizationId),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** Who is told when a domain lapses: the organisation's admins, with their address and name. */
export function adminContactsOf(db: Db, organizationId: string) {
  return db
    .select({ userId: organizationRoles.userId, email: users.email, name: profiles.fullName })
    .from(organizationRoles)
    .innerJoin(users, eq(users.id, organizationRoles.userId))
    .innerJoin(profiles, eq(profiles.id, organizationRoles.userId))
    .where(and(eq(organizationRoles.organizationId, organizationId), eq(organizationRoles.role, "admin")))
    .limit(100);
}

/** The organisation's verified domains, as its DID document lists them (LinkedDomains). */
export async function verifiedDomainsOf(db: Db, organizationId: string) {
  const rows = await db
    .select({ domain: organizationDomains.domain })
    .from(organizationDomains)
    .where(and(eq(organizationDomains.organizationId, organizationId), eq(organizationDomains.status, "verified")))
    .orderBy(asc(organizationDomains.verifiedAt))
    .limit(MAX_DOMAINS_PER_ORGANIZATION);
  return rows.map((row) => row.domain);
}

/** Whether an organisation with a verified domain has this name key. */
export async function verifiedNameTaken(db: Db, nameKey: string) {
  const [row] = await db
    .select({ id: organizationDomains.id })
    .from(organizationDomains)
    .where(and(eq(organizationDomains.status, "verified"), eq(organizationDomains.nameKey, nameKey)))
    .limit(1);
  return Boolean(row);
}
