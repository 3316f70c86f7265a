import { forbidden } from "#app/utils/denial.server.ts";
import { mediaKeyFromUrl, type StoredFile } from "#app/utils/media.server.ts";
import { invalidatePassports } from "#app/utils/passport-cache.server.ts";
import { findMembership } from "#db/queries/memberships/authorization.ts";
import {
  avatarUpdate,
  findIntroVideo,
  introVideoUpdate,
  setActiveOrganization,
  updateBio,
  updatePreferences,
  updateProfile,
} from "#db/queries/profiles.ts";
import { storageChangeStatements } from "#db/queries/storage.ts";
import type { ServiceContext } from "./context.server.ts";
import { countedFiles, deleteReleased } from "./storage.server.ts";

// What a person changes of their own profile. Each change the public passport shows forgets its
// cached pages here, so no caller can forget (tests/workers/passport-invalidation.test.ts).

export async function saveProfile(
  context: ServiceContext,
  userId: string,
  values: { fullName: string; bio: string | null; isPublic: boolean },
) {
  await updateProfile(context.db, userId, values);
  await invalidatePassports(context.env, userId);
}

export async function saveBio(context: ServiceContext, userId: string, bio: string | null) {
  await updateBio(context.db, userId, bio);
  await invalidatePassports(context.env, userId);
}

/** The privacy and e-mail choices; the passport's robots tag follows the search engine choice. */
export async function savePreferences(
  context: ServiceContext,
  userId: string,
  values: { searchIndexing: boolean; recognitionEmails: boolean },
) {
  await updatePreferences(context.db, userId, values);
  await invalidatePassports(context.env, userId);
}

/** A media file a person keeps: stored, with its size for their tally. */
type KeptFile = Pick<StoredFile, "url" | "key" | "size">;

/** Our files' keys behind these URLs (outside links have none). */
const keysOf = (urls: (string | null | undefined)[]) =>
  urls.map(mediaKeyFromUrl).filter((key): key is string => key !== null);

/**
 * A new picture, already stored under a key of its own (so caches never serve the old one). The
 * row points at it and the tally counts it instead of the old one in one batch; then the old
 * object goes (a failed delete is retried by the cron, never undoes the change).
 */
export async function replaceAvatar(
  context: ServiceContext,
  user: { id: string; avatarUrl: string | null },
  avatar: KeptFile,
) {
  const { db } = context;
  await db.batch([
    avatarUpdate(db, user.id, avatar.url),
    ...storageChangeStatements(db, user.id, { counted: countedFiles([avatar]), released: keysOf([user.avatarUrl]) }),
  ]);
  await afterMediaChange(context, user.id, [user.avatarUrl]);
}

/** Sets (with `null`, removes) the introduction video and its thumbnail; the ones it replaced go. */
export async function setIntroVideo(
  context: ServiceContext,
  userId: string,
  video: { video: KeptFile; thumbnail: KeptFile | null } | null,
) {
  const { db } = context;
  const previous = await findIntroVideo(db, userId);
  const replaced = [previous?.introVideoUrl, previous?.introVideoThumbnailUrl];
  const kept = video ? [video.video, ...(video.thumbnail ? [video.thumbnail] : [])] : [];
  await db.batch([
    introVideoUpdate(db, userId, {
      introVideoUrl: video?.video.url ?? null,
      introVideoThumbnailUrl: video?.thumbnail?.url ?? null,
    }),
    ...storageChangeStatements(db, userId, { counted: countedFiles(kept), released: keysOf(replaced) }),
  ]);
  await afterMediaChange(context, userId, replaced);
}

async function afterMediaChange(context: ServiceContext, userId: string, replaced: (string | null | undefined)[]) {
  await Promise.all([deleteReleased(context, keysOf(replaced)), invalidatePassports(context.env, userId)]);
}

/** Switches the active organisation, kept server-side; only to one the person is an approved member of. */
export async function switchOrganization(context: ServiceContext, userId: string, organizationId: string) {
  // Any organisation the user is an approved member of, wherever it falls in the switcher's pages.
  const membership = await findMembership(context.db, { userId, organizationId });
  if (membership?.status !== "approved") {
    throw forbidden(context, "not a member of the organisation", { userId, organizationId });
  }
  await setActiveOrganization(context.db, userId, organizationId);
}
