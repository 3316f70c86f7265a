import { and, eq, isNotNull, isNull, ne, or, type SQL } from "drizzle-orm";
import type { Db } from "../client.ts";
import { profiles, users } from "../schema.ts";

/** What every signed-in page needs to know about its viewer. */
export async function findViewerProfile(db: Db, userId: string) {
  const [row] = await viewerProfileQuery(db, userId);
  return row ?? null;
}

/** The same read as a statement; `userId` may be an expression (the session's user, in the guard's batch). */
export function viewerProfileQuery(db: Db, userId: string | SQL<string>) {
  return db
    .select({
      fullName: profiles.fullName,
      userType: profiles.userType,
      bio: profiles.bio,
      avatarUrl: profiles.avatarUrl,
      introVideoUrl: profiles.introVideoUrl,
      introVideoThumbnailUrl: profiles.introVideoThumbnailUrl,
      isPublic: profiles.isPublic,
      searchIndexing: profiles.searchIndexing,
      recognitionEmails: profiles.recognitionEmails,
      activeOrganizationId: profiles.activeOrganizationId,
      deletedAt: profiles.deletedAt,
    })
    .from(profiles)
    .where(eq(profiles.id, userId))
    .limit(1);
}

export type ViewerProfile = NonNullable<Awaited<ReturnType<typeof findViewerProfile>>>;

// The organisation switcher (the user's memberships, with the active one) is read in
// memberships/person-memberships.ts: memberOrganizationsRead.

export async function setActiveOrganization(db: Db, userId: string, organizationId: string | null) {
  // Only when it changes: a sign-out of a user with none set writes nothing (not even updated_at).
  const changes =
    organizationId === null
      ? isNotNull(profiles.activeOrganizationId)
      : or(isNull(profiles.activeOrganizationId), ne(profiles.activeOrganizationId, organizationId));
  await db
    .update(profiles)
    .set({ activeOrganizationId: organizationId })
    .where(and(eq(profiles.id, userId), changes));
}

/** Profile fields the owner edits; the account name follows the full name (it greets e-mails). */
export async function updateProfile(
  db: Db,
  userId: string,
  values: { fullName: string; bio: string | null; isPublic: boolean },
) {
  await db.batch([
    db.update(profiles).set(values).where(eq(profiles.id, userId)),
    db.update(users).set({ name: values.fullName }).where(eq(users.id, userId)),
  ]);
}

/** The privacy and e-mail choices of Settings. */
export async function updatePreferences(
  db: Db,
  userId: string,
  values: { searchIndexing: boolean; recognitionEmails: boolean },
) {
  await db.update(profiles).set(values).where(eq(profiles.id, userId));
}

/** Where and whether to e-mail a person about a recognition (null: no such active account). */
/** Where (and whether) to e-mail a person about an achievement offered to them: a statement for a batch. */
export function recognitionEmailTargetQuery(db: Db, userId: string) {
  return db
    .select({ email: users.email, name: profiles.fullName, wantsEmail: profiles.recognitionEmails })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.id))
    .where(and(eq(profiles.id, userId), isNull(profiles.deletedAt)))
    .limit(1);
}

export async function updateBio(db: Db, userId: string, bio: string | null) {
  await db.update(profiles).set({ bio }).where(eq(profiles.id, userId));
}

/** The new picture, as a statement for the batch that also counts it (decision 074). */
export function avatarUpdate(db: Db, userId: string, avatarUrl: string) {
  return db.update(profiles).set({ avatarUrl }).where(eq(profiles.id, userId));
}

/** The introduction video now set, to know what a change replaces. */
export async function findIntroVideo(db: Db, userId: string) {
  const [row] = await db
    .select({ introVideoUrl: profiles.introVideoUrl, introVideoThumbnailUrl: profiles.introVideoThumbnailUrl })
    .from(profiles)
    .where(eq(profiles.id, userId))
    .limit(1);
  return row ?? null;
}

/** Sets (or with nulls, clears) the introduction video, as a statement for the batch that counts it. */
export function introVideoUpdate(
  db: Db,
  userId: string,
  video: { introVideoUrl: string | null; introVideoThumbnailUrl: string | null },
) {
  return db.update(profiles).set(video).where(eq(profiles.id, userId));
}
