// Rendered public passports are kept in the edge cache (the Workers Cache API), keyed by their
// public URL on the app's own origin. Every change that alters what a passport shows deletes its
// entries before the change's response returns, so the next visitor gets a fresh page: here at
// once, and in every other data centre through Cloudflare's purge API when the zone is
// configured (cache-purge.server.ts; without it, the edge TTL below is the bound).

import { purgeEverywhere, type CachePurgeEnv } from "./cache-purge.server.ts";

/** What the cache needs of the environment: the app's origin, and the zone to purge. */
export type PassportCacheEnv = CachePurgeEnv & { APP_URL?: string };

/** Where internal entries (the change markers, the landing card) live: never purged by URL. */
const CACHE_ORIGIN = "https://passport-cache.invalid";
const PASSPORT_PATH = /^\/passport\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** The pages of one passport: the first entries, and all of them (?all=1). */
const PAGES = ["", "?all=1"];
/**
 * Each page is rendered with the cookie banner (no choice made yet) or without it: the entry
 * without the banner is the page's own URL, the other carries this marker in its query.
 */
const BANNER_PARAM = "cookie-banner";

/** How long the edge keeps a page, and how long it may serve it stale while it refreshes. */
const PASSPORT_EDGE_CACHE_CONTROL = "public, max-age=0, s-maxage=300, stale-while-revalidate=600";
/** Browsers always ask again, so a change shows on the next visit. */
export const PASSPORT_BROWSER_CACHE_CONTROL = "public, max-age=0, must-revalidate";

/**
 * Every public URL of one passport (its pages and its link preview image), relative to the
 * app's origin: the one list that both the local delete and the global purge work from, so a
 * page added here is cached, deleted and purged alike.
 */
export function passportUrls(userId: string) {
  const path = `/passport/${userId.toLowerCase()}`;
  return [...PAGES.map((page) => `${path}${page}`), passportCardPath(userId)];
}
const passportCardPath = (userId: string) => `/passport/${userId.toLowerCase()}/card.png`;

/**
 * The origin cache keys are made on: the app's public origin, so that Cloudflare's purge by URL
 * (which only reaches entries keyed on the zone's own host) finds them.
 */
export const passportCacheOrigin = (env: { APP_URL?: string }) =>
  env.APP_URL ? new URL(env.APP_URL).origin : CACHE_ORIGIN;

const keyOf = (origin: string, url: string, withBanner: boolean) => {
  const key = new URL(url, origin);
  if (withBanner) key.searchParams.set(BANNER_PARAM, "1");
  return key.href;
};
/** Every cache entry of one passport: both renderings of each page, and the card. */
function passportCacheKeys(origin: string, userId: string) {
  const card = passportCardPath(userId);
  return passportUrls(userId).flatMap((url) =>
    url === card ? [keyOf(origin, url, false)] : [keyOf(origin, url, false), keyOf(origin, url, true)],
  );
}

/** A passport's link preview image (workers/routes/passport-card.ts), purged with its pages. */
export const passportCardCacheKey = (origin: string, userId: string) => keyOf(origin, passportCardPath(userId), false);
export const LANDING_CARD_CACHE_KEY = `${CACHE_ORIGIN}/card.png`;
/** Per user, when its passport last changed: a render that started before then is not stored. */
const changeMarkerKey = (userId: string) => `${CACHE_ORIGIN}/passport/${userId.toLowerCase()}/changed`;
const CHANGED_AT_HEADER = "X-Passport-Changed-At";

/** The user and page of a public passport URL, or null for any other URL (or another page of it). */
export function passportPage(url: URL) {
  const match = PASSPORT_PATH.exec(url.pathname);
  if (!match || !PAGES.includes(url.search)) return null;
  return { userId: match[1]!, page: url.search };
}

/** A page's cache entry: it is rendered with the cookie banner or, once a choice is made, without. */
export function passportCacheEntry(
  { userId, page }: { userId: string; page: string },
  cookieChoiceMade: boolean,
  origin: string,
) {
  return { userId, key: keyOf(origin, `/passport/${userId.toLowerCase()}${page}`, !cookieChoiceMade) };
}

/** The Worker's edge cache (the DOM typings of `caches` do not know `default`). */
export const edgeCache = () => (caches as unknown as { default: Cache }).default;

/**
 * Stores a rendered page, unless its passport changed after the render began: a visit that read
 * the old data can finish after the change's invalidation, and must not put the old page back.
 */
export async function storePassportPage(
  entry: { userId: string; key: string },
  page: ArrayBuffer,
  headers: Headers,
  renderStartedAt: number,
) {
  const marker = await edgeCache().match(changeMarkerKey(entry.userId));
  if (marker && Number(marker.headers.get(CHANGED_AT_HEADER)) >= renderStartedAt) return;
  const stored = new Response(page, { headers });
  stored.headers.set("Cache-Control", PASSPORT_EDGE_CACHE_CONTROL);
  await edgeCache().put(entry.key, stored);
}

/**
 * Forgets every cached page of these users' passports, and notes when they changed: here at
 * once, and in every data centre when the zone's purge API is configured. A failed purge is
 * logged, never thrown: the change is saved, and the edge TTL bounds what other places show.
 */
export async function invalidatePassports(env: PassportCacheEnv, ...userIds: string[]) {
  // caches is absent under the Vite dev server's Node runtime; nothing is cached there.
  if (typeof caches === "undefined") return;
  const origin = passportCacheOrigin(env);
  const keys = userIds.flatMap((userId) => passportCacheKeys(origin, userId));
  const changedAt = String(Date.now());
  // The marker outlives any render in flight (a Worker request cannot run for minutes).
  const marker = () =>
    new Response("", { headers: { "Cache-Control": "s-maxage=300", [CHANGED_AT_HEADER]: changedAt } });
  await Promise.all([
    ...userIds.map((userId) => edgeCache().put(changeMarkerKey(userId), marker())),
    ...keys.map((key) => edgeCache().delete(key)),
    purgeEverywhere(env, keys),
  ]);
}
