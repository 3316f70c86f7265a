import type { ServiceContext } from "./context.server.ts";
import { z } from "zod";
import { responsiveSrcSet } from "#app/utils/media.server.ts";
import { loadAllPassportEntries, loadPassport } from "#db/queries/achievements.ts";
import { decodeCursor, type PageRequest } from "#db/queries/paging.ts";
import { shownEndorsementsOf } from "#db/queries/endorsements.ts";

const userIdSchema = z.uuid();

/**
 * One page of a public passport as its reader may see it: null when the id is not a passport,
 * the account is archived, or the passport is private and the reader is not its owner. With
 * `everything`, the entries after the page are read too (the print view: no entry left out).
 */
export async function readPublicPassport(
  context: ServiceContext,
  {
    userIdParam,
    page,
    origin,
    readerId,
    everything = false,
  }: {
    userIdParam: string | undefined;
    page: PageRequest;
    /** The app's origin, for the canonical URL. */
    origin: string;
    /** Who reads it, asked only when the passport would otherwise be hidden from them. */
    readerId: () => Promise<string | null>;
    everything?: boolean;
  },
) {
  const userId = userIdSchema.safeParse(userIdParam);
  if (!userId.success) return null;
  const passport = await loadPassport(context.db, userId.data, page);
  const isOwner = Boolean(passport && (await readerId()) === userId.data);
  // Archived accounts are never public; a private passport is visible to its owner only.
  if (!passport || passport.profile.deletedAt || !(passport.profile.isPublic || isOwner)) return null;
  const after = everything ? decodeCursor(passport.next) : undefined;
  const rest = after ? await loadAllPassportEntries(context.db, userId.data, page.size, after) : [];
  const entries = [...passport.achievements, ...rest];
  const endorsements = await shownEndorsementsByEntry(
    context,
    userId.data,
    entries.map((entry) => entry.id),
  );
  // The creation time is only the cursor's: not sent to the page.
  const achievements = entries.map(({ createdAt: _, ...achievement }) => ({
    ...achievement,
    imageSrcSet: responsiveSrcSet(achievement.imageUrl, context.env.IMAGE_RESIZING),
    endorsements: endorsements.get(achievement.id) ?? [],
  }));
  // The page's one address for previews and search engines (the first page, whatever was asked).
  const canonicalUrl = new URL(`/passport/${userId.data}`, origin).href;
  return {
    userId: userId.data,
    isOwner,
    canonicalUrl,
    passport: { ...passport, achievements, next: everything ? null : passport.next },
  };
}

/** Bound parameters of one `IN (...)` list (D1 allows 100 per statement, the owner's id is one). */
const ENDORSED_IDS_PER_READ = 90;

/** The shown endorsements of the entries (decision 072), by entry: a read per 90 entries (one for a page). */
async function shownEndorsementsByEntry(context: ServiceContext, ownerId: string, ids: string[]) {
  const chunks: string[][] = [];
  for (let start = 0; start < ids.length; start += ENDORSED_IDS_PER_READ)
    chunks.push(ids.slice(start, start + ENDORSED_IDS_PER_READ));
  const rows = (await Promise.all(chunks.map((chunk) => shownEndorsementsOf(context.db, ownerId, chunk)))).flat();
  const byEntry = new Map<string, { id: string; name: string; comment: string }[]>();
  for (const { achievementId, ...endorsement } of rows) {
    byEntry.set(achievementId, [...(byEntry.get(achievementId) ?? []), endorsement]);
  }
  return byEntry;
}
