import type { ServiceContext } from "./context.server.ts";
import { z } from "zod";
import { responsiveSrcSet } from "#app/utils/media.server.ts";
import { errorSummary, log } from "#app/utils/log.server.ts";
import {
  loadAllPassportEntries,
  loadPassport,
  loadPassportProfile,
  type Preview,
} from "#db/queries/achievements/public.ts";
import { loadEntryEndorsements } from "#db/queries/endorsements.ts";
import { decodeCursor, type PageRequest } from "#db/queries/paging.ts";
import type { PassportEndorsement } from "#app/components/passport/types.ts";

const userIdSchema = z.uuid();

/**
 * One page of a public passport as its reader may see it: null when the id is not a passport,
 * the account is archived, or the passport is private and the reader is not its owner. With
 * `everything`, the entries after the page are read too (the print view: no entry left out).
 *
 * A failing read is a quiet failure (spec section 8): logged with the request id, never an error
 * page. The profile is then read alone: when that fails too the passport is not found; else it
 * shows with no entries. `partial` marks such a page, which must not be cached.
 */
export async function readPublicPassport(
  context: ServiceContext,
  {
    userIdParam,
    page,
    origin,
    readerId,
    everything = false,
    preview,
  }: {
    userIdParam: string | undefined;
    page: PageRequest;
    /** The app's origin, for the canonical URL. */
    origin: string;
    /** Who reads it, asked only when the passport would otherwise be hidden from them. */
    readerId: () => Promise<string | null>;
    everything?: boolean;
    /** A long passport's first page reads only its first entries (`loadPassport`). */
    preview?: Preview;
  },
) {
  const userId = userIdSchema.safeParse(userIdParam);
  if (!userId.success) return null;
  let partial = false;
  const failed = (message: string) => (error: unknown) => {
    log("error", message, { requestId: context.requestId, error: errorSummary(error) });
    partial = true;
    return null;
  };
  const passport =
    (await loadPassport(context.db, userId.data, page, preview).catch(failed("passport failed to load"))) ??
    (partial ? await readProfileAlone(context, userId.data, failed("passport profile failed to load")) : null);
  const isOwner = Boolean(passport && (await readerId()) === userId.data);
  // Archived accounts are never public; a private passport is visible to its owner only.
  if (!passport || passport.profile.deletedAt || !(passport.profile.isPublic || isOwner)) return null;
  const after = everything ? decodeCursor(passport.next) : undefined;
  const rest =
    (after &&
      (await loadAllPassportEntries(context.db, userId.data, page.size, after).catch(
        failed("passport failed to load"),
      ))) ||
    [];
  // The creation time is only the cursor's: not sent to the page.
  // Expiry, renewal (decision 071) and endorsements (072) are sent only for the entries that have
  // them: the page's HTML budget, on the passport's hot path. A card carries its first few
  // endorsements and how many there are (decision 079).
  const achievements = [...passport.achievements, ...rest].map(
    ({ createdAt: _, validUntil, renewalCount, firstGivenOn, endorsementCount, endorsementsJson, ...achievement }) => ({
      ...achievement,
      ...(validUntil ? { validUntil } : {}),
      ...(renewalCount ? { renewalCount, firstGivenOn } : {}),
      ...(endorsementsJson ? { endorsements: endorsementsOf(endorsementsJson), endorsementCount } : {}),
      imageSrcSet: responsiveSrcSet(achievement.imageUrl, context.env.IMAGE_RESIZING),
    }),
  );
  // The page's one address for previews and search engines (the first page, whatever was asked).
  const canonicalUrl = new URL(`/passport/${userId.data}`, origin).href;
  return {
    userId: userId.data,
    isOwner,
    canonicalUrl,
    passport: { ...passport, achievements, next: everything ? null : passport.next },
    partial,
  };
}

/** The profile of a passport whose entries could not be read: shown with none. */
async function readProfileAlone(context: ServiceContext, userId: string, failed: (error: unknown) => null) {
  const profile = await loadPassportProfile(context.db, userId).catch(failed);
  return profile && { profile, achievements: [], next: null, previous: null, total: 0 };
}

/**
 * One page of the endorsements an entry of a passport shows (its card carries the first few,
 * decision 079): null unless both ids are UUIDs, the achievement is an entry `userIdParam`'s
 * passport shows, and the reader may see that passport (public and active, or their own).
 */
export async function readEntryEndorsements(
  context: ServiceContext,
  {
    userIdParam,
    achievementIdParam,
    page,
    readerId,
  }: {
    userIdParam: string | undefined;
    achievementIdParam: string | undefined;
    page: PageRequest;
    readerId: () => Promise<string | null>;
  },
) {
  const userId = userIdSchema.safeParse(userIdParam);
  const achievementId = userIdSchema.safeParse(achievementIdParam);
  if (!userId.success || !achievementId.success) return null;
  const found = await loadEntryEndorsements(
    context.db,
    { userId: userId.data, achievementId: achievementId.data },
    page,
  );
  if (!found || found.entry.deletedAt) return null;
  const isOwner = (await readerId()) === userId.data;
  if (!found.entry.isPublic && !isOwner) return null;
  return { ...found, userId: userId.data, achievementId: achievementId.data, isOwner };
}

/** A card's endorsements as its statement wrote them (SQLite's JSON has no booleans: 0 or 1). */
function endorsementsOf(json: string): PassportEndorsement[] {
  return (JSON.parse(json) as (Omit<PassportEndorsement, "byOrganization"> & { byOrganization: number })[]).map(
    (endorsement) => ({ ...endorsement, byOrganization: Boolean(endorsement.byOrganization) }),
  );
}
