import { forbidden } from "#app/utils/denial.server.ts";
import { log } from "#app/utils/log.server.ts";
import { deleteMedia } from "#app/utils/media.server.ts";
import { errorSummary } from "#app/utils/form-reply.server.ts";
import { invalidatePassports } from "#app/utils/passport-cache.server.ts";
import { findMembership } from "#db/queries/memberships/authorization.ts";
import {
  replaceIntroVideo,
  setActiveOrganization,
  updateAvatar,
  updateBio,
  updatePreferences,
  updateProfile,
} from "#db/queries/profiles.ts";
import type { ServiceContext } from "./context.server.ts";

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

/**
 * A new picture, already stored under a key of its own (so caches never serve the old one). Once
 * the row points at it the old object goes; failing to delete it is logged, never undoes the change.
 */
export async function replaceAvatar(
  context: ServiceContext,
  user: { id: string; avatarUrl: string | null },
  avatarUrl: string,
) {
  await updateAvatar(context.db, user.id, avatarUrl);
  await afterMediaChange(context, user.id, [user.avatarUrl]);
}

/** Sets (or with nulls, removes) the introduction video; the one it replaced goes. */
export async function setIntroVideo(
  context: ServiceContext,
  userId: string,
  video: { introVideoUrl: string | null; introVideoThumbnailUrl: string | null },
) {
  const previous = await replaceIntroVideo(context.db, userId, video);
  await afterMediaChange(context, userId, [previous?.introVideoUrl, previous?.introVideoThumbnailUrl]);
}

async function afterMediaChange(context: ServiceContext, userId: string, replaced: (string | null | undefined)[]) {
  await Promise.all([
    deleteMedia(context.cloudflare.env.MEDIA, replaced).catch((error) =>
      log("error", "replaced media not deleted", { userId, requestId: context.requestId, error: errorSummary(error) }),
    ),
    invalidatePassports(context.env, userId),
  ]);
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
