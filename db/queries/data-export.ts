import { and, asc, eq, isNotNull, ne, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "../client.ts";
import {
  achievementAcceptances,
  achievements,
  betaFeedback,
  credentialHolders,
  credentials,
  endorsements,
  notifications,
  organizations,
  passkeys,
  profiles,
  users,
} from "../schema.ts";
import { retiredKeyVersionsOf } from "./credentials/stored.ts";
import { MEMBERSHIP_TITLE_PREFIX } from "./achievements/card.ts";
import { exportedMembershipsPage, exportedRolesPage } from "./memberships/export.ts";

// Everything a person takes out with "Download my data": their own rows only, read page by page
// so no single query is unbounded. Other people appear by name at most, never by e-mail.

const PAGE = 500;
/** A hard ceiling per kind of row (far above any real account), so an export always ends. */
export const MAX_EXPORTED_ROWS = 50_000;

type PagedQuery<T> = (page: { limit: number; offset: number }) => Promise<T[]>;

/** The one paging loop: yields `query` page by page until a short page (or the ceiling). */
async function* pagesOf<T>(query: PagedQuery<T>, pageSize = PAGE) {
  for (let offset = 0; offset < MAX_EXPORTED_ROWS; offset += pageSize) {
    const page = await query({ limit: pageSize, offset });
    yield page;
    if (page.length < pageSize) return;
  }
}

/** Every row of `query`, read page by page. */
async function allPages<T>(query: PagedQuery<T>) {
  const rows: T[] = [];
  for await (const page of pagesOf(query)) rows.push(...page);
  return rows;
}

export async function findExportProfile(db: Db, userId: string) {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      fullName: profiles.fullName,
      userType: profiles.userType,
      bio: profiles.bio,
      avatarUrl: profiles.avatarUrl,
      introVideoUrl: profiles.introVideoUrl,
      introVideoThumbnailUrl: profiles.introVideoThumbnailUrl,
      isPublic: profiles.isPublic,
      searchIndexing: profiles.searchIndexing,
      recognitionEmails: profiles.recognitionEmails,
      twoFactorEnabled: users.twoFactorEnabled,
      createdAt: profiles.createdAt,
    })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.id))
    .where(eq(profiles.id, userId))
    .limit(1);
  return row ?? null;
}

/** Every achievement given to the person (or made by them for themself), whatever its status. */
export function listReceivedAchievements(db: Db, userId: string) {
  return allPages(({ limit, offset }) =>
    db
      .select({
        id: achievements.id,
        title: achievements.title,
        description: achievements.description,
        date: achievements.date,
        type: achievements.type,
        status: achievements.status,
        isVisible: achievements.isVisible,
        // A membership entry (decision 070) names its organisation in its title, which outlives it.
        organizationName: sql<
          string | null
        >`coalesce(${organizations.name}, case when ${achievements.membershipOrganizationId}
          is not null then substr(${achievements.title}, ${MEMBERSHIP_TITLE_PREFIX.length + 1}) end)`,
        membershipOrganizationId: achievements.membershipOrganizationId,
        membershipRole: achievements.membershipRole,
        membershipEndedOn: achievements.membershipEndedOn,
        // Expiry and renewal (decision 071): its expiry day, the entry it renews and the one that
        // renewed it (an entry folded into its renewal's history).
        validUntil: achievements.validUntil,
        renewsAchievementId: achievements.renewsAchievementId,
        renewalCount: achievements.renewalCount,
        firstGivenOn: achievements.firstGivenOn,
        renewedBy: achievements.renewedBy,
        credentialId: credentials.id,
        imageUrl: achievements.imageUrl,
        videoUrl: achievements.videoUrl,
        // When the organisation revoked its credential: such an achievement leaves the passport.
        credentialRevokedAt: credentials.revokedAt,
        createdAt: achievements.createdAt,
      })
      .from(achievements)
      .leftJoin(organizations, eq(organizations.id, achievements.organizationId))
      .leftJoin(credentials, eq(credentials.achievementId, achievements.id))
      .where(eq(achievements.userId, userId))
      .orderBy(asc(achievements.createdAt), asc(achievements.id))
      .limit(limit)
      .offset(offset),
  );
}

const recipients = alias(profiles, "recipients");

/** Achievements the person gave to others as an organisation admin: the recipient by name only. */
export function listGivenAchievements(db: Db, userId: string) {
  return allPages(({ limit, offset }) =>
    db
      .select({
        id: achievements.id,
        title: achievements.title,
        description: achievements.description,
        date: achievements.date,
        type: achievements.type,
        status: achievements.status,
        organizationName: organizations.name,
        recipientName: recipients.fullName,
        validUntil: achievements.validUntil,
        createdAt: achievements.createdAt,
      })
      .from(achievements)
      .leftJoin(organizations, eq(organizations.id, achievements.organizationId))
      .leftJoin(recipients, eq(recipients.id, achievements.userId))
      .where(and(eq(achievements.createdBy, userId), ne(achievements.userId, userId)))
      .orderBy(asc(achievements.createdAt), asc(achievements.id))
      .limit(limit)
      .offset(offset),
  );
}

export function listExportMemberships(db: Db, userId: string) {
  return allPages((page) => exportedMembershipsPage(db, { userId }, page));
}

export function listExportRoles(db: Db, userId: string) {
  return allPages((page) => exportedRolesPage(db, { userId }, page));
}

export function listExportNotifications(db: Db, userId: string) {
  return allPages(({ limit, offset }) =>
    db
      .select({
        title: notifications.title,
        message: notifications.message,
        type: notifications.type,
        read: notifications.read,
        createdAt: notifications.createdAt,
      })
      .from(notifications)
      .where(eq(notifications.userId, userId))
      .orderBy(asc(notifications.createdAt), asc(notifications.id))
      .limit(limit)
      .offset(offset),
  );
}

export function listExportFeedback(db: Db, userId: string) {
  return allPages(({ limit, offset }) =>
    db
      .select({ message: betaFeedback.message, rating: betaFeedback.rating, createdAt: betaFeedback.createdAt })
      .from(betaFeedback)
      .where(eq(betaFeedback.userId, userId))
      .orderBy(asc(betaFeedback.createdAt), asc(betaFeedback.id))
      .limit(limit)
      .offset(offset),
  );
}

/** The person's passkeys as Settings lists them: labels, kinds and dates, not their keys. */
export function listExportPasskeys(db: Db, userId: string) {
  return allPages(({ limit, offset }) =>
    db
      .select({
        name: passkeys.name,
        deviceType: passkeys.deviceType,
        backedUp: passkeys.backedUp,
        authenticator: passkeys.aaguid,
        createdAt: passkeys.createdAt,
        lastUsedAt: passkeys.lastUsedAt,
      })
      .from(passkeys)
      .where(eq(passkeys.userId, userId))
      .orderBy(asc(passkeys.createdAt), asc(passkeys.id))
      .limit(limit)
      .offset(offset),
  );
}

/** The wallet DIDs the person's credentials were issued to (decision 066), as Settings lists them. */
export function listExportWalletKeys(db: Db, userId: string) {
  return allPages(({ limit, offset }) =>
    db
      .select({
        holder: credentialHolders.holder,
        credentialId: credentialHolders.credentialId,
        issuedAt: credentialHolders.issuedAt,
      })
      .from(credentialHolders)
      .where(eq(credentialHolders.userId, userId))
      .orderBy(asc(credentialHolders.issuedAt), asc(credentialHolders.id))
      .limit(limit)
      .offset(offset),
  );
}

/** The acceptances the person signed with a wallet, each with the presentation as it was signed. */
export function listExportAcceptances(db: Db, userId: string) {
  return allPages(({ limit, offset }) =>
    db
      .select({
        achievementId: achievementAcceptances.achievementId,
        credentialId: credentials.id,
        holder: achievementAcceptances.holder,
        challenge: achievementAcceptances.challenge,
        signedAt: achievementAcceptances.signedAt,
        presentation: achievementAcceptances.presentation,
      })
      .from(achievementAcceptances)
      .leftJoin(credentials, eq(credentials.achievementId, achievementAcceptances.achievementId))
      .where(eq(achievementAcceptances.userId, userId))
      .orderBy(asc(achievementAcceptances.signedAt), asc(achievementAcceptances.achievementId))
      .limit(limit)
      .offset(offset),
  );
}

/** Signed credentials run to a few kB each: they are read (and zipped) a page at a time, never all at once. */
const CREDENTIAL_PAGE = 100;

/** The person's signed credentials (revoked ones too: they verify as revoked), page by page. */
export function pagesOfExportCredentials(db: Db, userId: string) {
  return pagesOf(
    ({ limit, offset }) =>
      db
        .select({
          id: credentials.id,
          organizationId: credentials.organizationId,
          json: credentials.json,
          issuedAt: credentials.issuedAt,
          retiredKeyVersions: retiredKeyVersionsOf(credentials.organizationId),
        })
        .from(credentials)
        .where(and(eq(credentials.userId, userId), isNotNull(credentials.json)))
        .orderBy(asc(credentials.issuedAt), asc(credentials.id))
        .limit(limit)
        .offset(offset),
    CREDENTIAL_PAGE,
  );
}

/**
 * The endorsements a person received (on their achievements) or gave (as themselves or for an
 * organisation), each with its signed EndorsementCredential (decision 072).
 */
export function listExportEndorsements(db: Db, userId: string, side: "received" | "given") {
  return allPages(({ limit, offset }) =>
    db
      .select({
        id: endorsements.id,
        achievementId: endorsements.achievementId,
        achievementTitle: achievements.title,
        endorserName: endorsements.endorserName,
        endorserOrganizationId: endorsements.endorserOrganizationId,
        comment: endorsements.comment,
        status: endorsements.status,
        createdAt: endorsements.createdAt,
        credential: endorsements.credential,
      })
      .from(endorsements)
      .innerJoin(achievements, eq(achievements.id, endorsements.achievementId))
      .where(side === "received" ? eq(endorsements.ownerId, userId) : eq(endorsements.endorserId, userId))
      .orderBy(asc(endorsements.createdAt), asc(endorsements.id))
      .limit(limit)
      .offset(offset),
  );
}
