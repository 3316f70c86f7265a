// Endorsements (issue 33, decision 072): what endorsing reads, the owner's list and answers, the
// shown ones a passport carries, and what an export holds.
import { and, count, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import {
  achievements,
  credentials,
  endorsements,
  importedCredentials,
  organizationDomains,
  organizationRoles,
  organizations,
  profiles,
  type EndorsementStatus,
} from "../schema.ts";
import { strongFactorMissing, strongFactorRequired } from "./memberships/authorization.ts";
import { latestKeyOfOrganizationQuery } from "./credentials/issuance.ts";
import { keyset, toPage, type PageRequest } from "./paging.ts";
import { shownOnPassport } from "./achievements/card.ts";
import { verifiedDomainOf } from "./organization-domains.ts";

/** How many organisations an admin may endorse for, as the form lists them. */
export const ENDORSING_ORGANIZATIONS_MAX = 50;

/**
 * Everything endorsing needs to know, in one round trip: the achievement on its owner's passport
 * (with the owner's profile), the viewer's name, the organisations the viewer administers (and
 * whether each holds them back for a strong factor), and what the viewer, or those organisations,
 * already endorsed of it.
 */
export async function loadEndorsingContext(
  db: Db,
  { achievementId, viewerId }: { achievementId: string; viewerId: string },
) {
  const [target, viewer, administered, given] = await db.batch([
    db
      .select({
        id: achievements.id,
        userId: achievements.userId,
        title: achievements.title,
        status: achievements.status,
        isVisible: achievements.isVisible,
        ownerName: profiles.fullName,
        ownerPublic: profiles.isPublic,
        ownerDeletedAt: profiles.deletedAt,
      })
      .from(achievements)
      .innerJoin(profiles, eq(profiles.id, achievements.userId))
      .where(eq(achievements.id, achievementId))
      .limit(1),
    db.select({ name: profiles.fullName }).from(profiles).where(eq(profiles.id, viewerId)).limit(1),
    db
      .select({
        id: organizations.id,
        name: organizations.name,
        strongFactorMissing: strongFactorMissing(viewerId),
        strongFactorRequired: strongFactorRequired(),
        domain: sql<string | null>`(select ${organizationDomains.domain} from ${organizationDomains}
          where ${organizationDomains.organizationId} = ${organizations.id}
            and ${organizationDomains.status} = 'verified' limit 1)`,
      })
      .from(organizationRoles)
      .innerJoin(organizations, eq(organizations.id, organizationRoles.organizationId))
      .where(and(eq(organizationRoles.userId, viewerId), eq(organizationRoles.role, "admin")))
      .orderBy(organizations.name)
      .limit(ENDORSING_ORGANIZATIONS_MAX),
    db
      .select({ organizationId: endorsements.endorserOrganizationId })
      .from(endorsements)
      .where(
        and(
          eq(endorsements.achievementId, achievementId),
          or(
            and(isNull(endorsements.endorserOrganizationId), eq(endorsements.endorserId, viewerId)),
            inArray(
              endorsements.endorserOrganizationId,
              db
                .select({ id: organizationRoles.organizationId })
                .from(organizationRoles)
                .where(and(eq(organizationRoles.userId, viewerId), eq(organizationRoles.role, "admin"))),
            ),
          ),
        ),
      )
      .limit(ENDORSING_ORGANIZATIONS_MAX + 1),
  ]);
  return {
    target: target[0] ?? null,
    viewerName: viewer[0]?.name ?? null,
    administered,
    /** Null stands for the viewer as a person. */
    endorsedBy: given.map((row) => row.organizationId),
  };
}

/** The signer's newest key: an organisation's, or a person's under their key owner id. */
export const latestKeyOf = (db: Db, keyOwner: string) => latestKeyOfOrganizationQuery(db, keyOwner);

export type NewEndorsement = typeof endorsements.$inferInsert;

/** Stores an endorsement unless its endorser already endorsed the achievement: its id, or none. */
export function insertEndorsement(db: Db, row: NewEndorsement) {
  return db.insert(endorsements).values(row).onConflictDoNothing().returning({ id: endorsements.id });
}

/** The owner's endorsements, newest first, a page at a time (with the achievement each is about). */
export async function listReceivedEndorsements(db: Db, ownerId: string, page: PageRequest) {
  const { where, orderBy, limit } = keyset(endorsements.createdAt, endorsements.id, "desc", page);
  const rows = await db
    .select({
      id: endorsements.id,
      achievementId: endorsements.achievementId,
      achievementTitle: achievements.title,
      endorserName: endorsements.endorserName,
      byOrganization: sql<boolean>`${endorsements.endorserOrganizationId} is not null`.mapWith(Boolean),
      comment: endorsements.comment,
      status: endorsements.status,
      createdAt: endorsements.createdAt,
    })
    .from(endorsements)
    .innerJoin(achievements, eq(achievements.id, endorsements.achievementId))
    .where(and(eq(endorsements.ownerId, ownerId), where))
    .orderBy(...orderBy)
    .limit(limit);
  return toPage(rows, page, (row) => ({ key: row.createdAt.getTime(), id: row.id }));
}

/**
 * An entry of a passport and one page of the endorsements its owner shows (oldest first, as its
 * card lists them), with how many there are, in one round trip (decision 079). No entry when
 * `achievementId` is not an entry `userId`'s passport shows; whether the passport is public is the
 * caller's to judge from the profile returned.
 */
export async function loadEntryEndorsements(
  db: Db,
  { userId, achievementId }: { userId: string; achievementId: string },
  page: PageRequest,
) {
  const shown = and(eq(endorsements.achievementId, achievementId), eq(endorsements.status, "shown"));
  const { where, orderBy, limit } = keyset(endorsements.createdAt, endorsements.id, "asc", page);
  const [entries, totals, rows] = await db.batch([
    db
      .select({
        title: achievements.title,
        ownerName: profiles.fullName,
        isPublic: profiles.isPublic,
        searchIndexing: profiles.searchIndexing,
        deletedAt: profiles.deletedAt,
      })
      .from(achievements)
      .innerJoin(profiles, eq(profiles.id, achievements.userId))
      .leftJoin(credentials, eq(credentials.achievementId, achievements.id))
      .leftJoin(importedCredentials, eq(importedCredentials.achievementId, achievements.id))
      .where(and(eq(achievements.id, achievementId), shownOnPassport(userId)))
      .limit(1),
    db.select({ value: count() }).from(endorsements).where(shown),
    db
      .select({
        id: endorsements.id,
        name: endorsements.endorserName,
        comment: endorsements.comment,
        // A person or an organisation, and an organisation's verified domain (issue 43).
        byOrganization: sql<boolean>`${endorsements.endorserOrganizationId} is not null`.mapWith(Boolean),
        domain: verifiedDomainOf(sql`${endorsements.endorserOrganizationId}`),
        createdAt: endorsements.createdAt,
      })
      .from(endorsements)
      .where(and(shown, where))
      .orderBy(...orderBy)
      .limit(limit),
  ]);
  const [entry] = entries;
  if (!entry) return null;
  const { items, next, previous } = toPage(rows, page, (row) => ({ key: row.createdAt.getTime(), id: row.id }));
  return {
    entry,
    total: totals[0]?.value ?? 0,
    endorsements: items.map(({ createdAt: _, ...endorsement }) => endorsement),
    next,
    previous,
  };
}

/** How many endorsements the owner received, and how many of them wait for an answer. */
export async function countReceivedEndorsements(db: Db, ownerId: string) {
  const [row] = await db
    .select({
      total: sql<number>`count(*)`,
      pending: sql<number>`coalesce(sum(${endorsements.status} = 'pending'), 0)`,
    })
    .from(endorsements)
    .where(eq(endorsements.ownerId, ownerId));
  return { total: row?.total ?? 0, pending: row?.pending ?? 0 };
}

/**
 * The owner's answer: shows or hides one of their endorsements. The row, if it is the owner's and
 * its status changed; none otherwise (someone else's, gone, or already so).
 */
export function setEndorsementStatus(
  db: Db,
  {
    id,
    ownerId,
    status,
    now,
  }: { id: string; ownerId: string; status: Exclude<EndorsementStatus, "pending">; now: Date },
) {
  return db
    .update(endorsements)
    .set({ status, decidedAt: now })
    .where(and(eq(endorsements.id, id), eq(endorsements.ownerId, ownerId), sql`${endorsements.status} <> ${status}`))
    .returning({ id: endorsements.id });
}

/** Who an endorsement belongs to and where it stands, for telling a refusal from a no-op. */
export async function findEndorsementOwner(db: Db, id: string) {
  const [row] = await db
    .select({ ownerId: endorsements.ownerId, status: endorsements.status })
    .from(endorsements)
    .where(eq(endorsements.id, id))
    .limit(1);
  return row ?? null;
}

/** The signed credential of an endorsement, as served to anyone who has its address. */
export async function findEndorsementCredential(db: Db, id: string) {
  const [row] = await db
    .select({ id: endorsements.id, credential: endorsements.credential })
    .from(endorsements)
    .where(eq(endorsements.id, id))
    .limit(1);
  return row ?? null;
}

/**
 * A purged person's own endorsements go with them (their name leaves other people's passports);
 * those they made for an organisation stay the organisation's. The owners whose passports change.
 */
export function deletePersonalEndorsementsBy(db: Db, endorserId: string) {
  return db
    .delete(endorsements)
    .where(and(eq(endorsements.endorserId, endorserId), isNull(endorsements.endorserOrganizationId)))
    .returning({ ownerId: endorsements.ownerId, status: endorsements.status });
}
