// Membership entries (decision 070): the 'Member of …' passport entry of a membership, an
// achievements row without organization_id (so no recognition count or analytics sees it) that
// names its organisation in membership_organization_id, and its credentials.
import { and, eq, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../client.ts";
import { insertWhen } from "../../client.ts";
import {
  achievements,
  credentials,
  organizationMembers,
  organizationRoles,
  organizations,
  users,
} from "../../schema.ts";
import { issuerIdentityColumns } from "../organization-domains.ts";
import type { MemberKey } from "./keys.ts";

const openEntryOf = ({ userId, organizationId }: MemberKey) =>
  and(
    eq(achievements.membershipOrganizationId, organizationId),
    eq(achievements.userId, userId),
    isNull(achievements.membershipEndedOn),
  );

/**
 * What starting a membership's entry needs, in one statement: the approved membership, whether the
 * person is an admin, the organisation's name, setting and verified domain, the person's address,
 * and whether an open entry exists already. No row when the membership is not approved.
 */
export function membershipToRecordQuery(db: Db, key: MemberKey) {
  return db
    .select({
      approvedAt: organizationMembers.approvedAt,
      organizationName: organizations.name,
      enabled: organizations.membershipCredentials,
      issuerDomain: issuerIdentityColumns(organizations.id).issuerDomain,
      email: users.email,
      isAdmin: sql<boolean>`exists (select 1 from ${organizationRoles} where ${organizationRoles.userId} = ${key.userId}
        and ${organizationRoles.organizationId} = ${key.organizationId} and ${organizationRoles.role} = 'admin')`.mapWith(
        Boolean,
      ),
      openEntryId: sql<string | null>`(select ${achievements.id} from ${achievements} where ${openEntryOf(key)})`,
    })
    .from(organizationMembers)
    .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
    .innerJoin(users, eq(users.id, organizationMembers.userId))
    .where(
      and(
        eq(organizationMembers.userId, key.userId),
        eq(organizationMembers.organizationId, key.organizationId),
        eq(organizationMembers.status, "approved"),
      ),
    )
    .limit(1);
}

/** Holds while the membership is approved and has no open entry (the `when` of starting one). */
export const approvedWithoutOpenEntry = (key: MemberKey) =>
  sql`exists (select 1 from ${organizationMembers} where ${organizationMembers.userId} = ${key.userId}
      and ${organizationMembers.organizationId} = ${key.organizationId} and ${organizationMembers.status} = 'approved')
    and not exists (select 1 from ${achievements} where ${openEntryOf(key)})`;

/** A new open entry, written only `when` holds (a statement for a batch). */
export function entryInsert(
  db: Db,
  entry: {
    id: string;
    userId: string;
    organizationId: string;
    title: string;
    date: string;
    role: "admin" | "member";
    signDue: boolean;
  },
  when: SQL,
) {
  return insertWhen(
    db,
    achievements,
    {
      id: entry.id,
      userId: entry.userId,
      organizationId: null,
      createdBy: null,
      title: entry.title,
      description: null,
      date: entry.date,
      type: "milestone",
      status: "accepted",
      isVisible: true,
      membershipOrganizationId: entry.organizationId,
      membershipRole: entry.role,
      membershipSignDue: entry.signDue,
    },
    when,
  )
    .onConflictDoNothing()
    .returning({ id: achievements.id });
}

/** Holds while the entry exists (for its credential's writes in the same batch). */
export const entryExists = (id: string) => sql`exists (select 1 from ${achievements} where ${achievements.id} = ${id})`;

const entryColumns = {
  id: achievements.id,
  userId: achievements.userId,
  organizationId: sql<string>`${achievements.membershipOrganizationId}`,
  title: achievements.title,
  date: achievements.date,
  role: achievements.membershipRole,
  endedOn: achievements.membershipEndedOn,
  createdAt: achievements.createdAt,
  email: users.email,
  // The current credential (superseded ones no longer belong to the entry).
  credentialId: sql<
    string | null
  >`(select ${credentials.id} from ${credentials} where ${credentials.achievementId} = ${achievements.id})`,
  // When the current credential says the membership started (its validFrom), else the entry's date.
  startedAt: sql<
    string | null
  >`(select json_extract(${credentials.json}, '$.validFrom') from ${credentials} where ${credentials.achievementId} = ${achievements.id})`,
  organizationName: organizations.name,
  issuerDomain: issuerIdentityColumns(achievements.membershipOrganizationId).issuerDomain,
};

/** Entries as signing their credential needs them, oldest first. */
const entriesWhere = (db: Db, where: SQL | undefined, limit: number) =>
  db
    .select(entryColumns)
    .from(achievements)
    .innerJoin(users, eq(users.id, achievements.userId))
    .leftJoin(organizations, eq(organizations.id, achievements.membershipOrganizationId))
    .where(where)
    .orderBy(achievements.createdAt, achievements.id)
    .limit(limit);

/** The person's open entry in the organisation, as ending it needs it (a statement for a batch). */
export const openEntryQuery = (db: Db, key: MemberKey) => entriesWhere(db, openEntryOf(key), 1);

export type MembershipEntry = Awaited<ReturnType<typeof openEntryQuery>>[number];

/** The organisations where the person has an open entry (a handful: one per membership). */
export async function organizationsWithOpenEntry(db: Db, userId: string) {
  const rows = await db
    .select({ organizationId: sql<string>`${achievements.membershipOrganizationId}` })
    .from(achievements)
    .where(
      and(
        eq(achievements.userId, userId),
        isNotNull(achievements.membershipOrganizationId),
        isNull(achievements.membershipEndedOn),
      ),
    );
  return rows.map((row) => row.organizationId);
}

/** Entries whose credential is to be (re)signed, oldest first: the cron's bounded batch. */
export const dueEntries = (db: Db, limit: number) =>
  entriesWhere(
    db,
    and(eq(achievements.membershipSignDue, true), isNotNull(achievements.membershipOrganizationId)),
    limit,
  );

/**
 * Ends the entry on `endedOn` (once: an ended entry keeps its date). With `signDue` the cron
 * signs its dated credential later.
 */
export function endEntryUpdate(db: Db, entryId: string, endedOn: string, signDue: boolean) {
  return db
    .update(achievements)
    .set({ membershipEndedOn: endedOn, membershipSignDue: signDue })
    .where(and(eq(achievements.id, entryId), isNull(achievements.membershipEndedOn)));
}

/** The entry's credential is signed as it stands (a statement for the batch that stores it). */
export function entrySignedUpdate(db: Db, entryId: string) {
  return db.update(achievements).set({ membershipSignDue: false }).where(eq(achievements.id, entryId));
}

/**
 * The older credential steps aside for the one that replaces it: superseded (not revoked), it
 * still verifies, but no longer belongs to the entry. Written only while it is still the entry's.
 */
export function supersedeCredentialUpdate(
  db: Db,
  { oldId, newId, entryId }: { oldId: string; newId: string; entryId: string },
) {
  return db
    .update(credentials)
    .set({ achievementId: null, supersededBy: newId })
    .where(and(eq(credentials.id, oldId), eq(credentials.achievementId, entryId)));
}

/** Turns membership credentials on or off for an organisation. */
export async function setMembershipCredentials(db: Db, organizationId: string, enabled: boolean) {
  await db.update(organizations).set({ membershipCredentials: enabled }).where(eq(organizations.id, organizationId));
}
