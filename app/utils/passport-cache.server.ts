// Rendered public passports are kept in the edge cache (the Workers Cache API), keyed by user
// and page. Every change that alters what a passport shows deletes its entries before the
// change's response returns, so the next visitor gets a fresh page.

/** A fixed origin for cache keys, so actions, the cron and the Worker all name entries alike. */
const CACHE_ORIGIN = "https://passport-cache.invalid";
const PASSPORT_PATH = /^\/passport\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** The pages of one passport: the first entries, and all of them (?all=1). */
const PAGES = ["", "?all=1"];
/** Each page is rendered with the cookie banner (no choice made yet) or without it. */
const BANNER_STATES = ["banner", "no-banner"] as const;

/** How long the edge keeps a page, and how long it may serve it stale while it refreshes. */
const PASSPORT_EDGE_CACHE_CONTROL = "public, max-age=0, s-maxage=300, stale-while-revalidate=600";
/** Browsers always ask again, so a change shows on the next visit. */
export const PASSPORT_BROWSER_CACHE_CONTROL = "public, max-age=0, must-revalidate";

const keyOf = (userId: string, page: string, banner: (typeof BANNER_STATES)[number]) =>
  `${CACHE_ORIGIN}/passport/${userId.toLowerCase()}/${banner}${page}`;
/** A passport's link preview image (workers/routes/passport-card.ts), purged with its pages. */
export const passportCardCacheKey = (userId: string) => `${CACHE_ORIGIN}/passport/${userId.toLowerCase()}/card.png`;
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
export function passportCacheEntry({ userId, page }: { userId: string; page: string }, cookieChoiceMade: boolean) {
  return { userId, key: keyOf(userId, page, cookieChoiceMade ? "no-banner" : "banner") };
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

/** Forgets every cached page of these users' passports, and notes when they changed. */
export async function invalidatePassports(...userIds: string[]) {
  // caches is absent under the Vite dev server's Node runtime; nothing is cached there.
  if (typeof caches === "undefined") return;
  const changedAt = String(Date.now());
  // The marker outlives any render in flight (a Worker request cannot run for minutes).
  const marker = () =>
    new Response("", { headers: { "Cache-Control": "s-maxage=300", [CHANGED_AT_HEADER]: changedAt } });
  await Promise.all(
    userIds.flatMap((userId) => [
      edgeCache().put(changeMarkerKey(userId), marker()),
      edgeCache().delete(passportCardCacheKey(userId)),
      ...PAGES.flatMap((page) => BANNER_STATES.map((banner) => edgeCache().delete(keyOf(userId, page, banner)))),
    ]),
  );
}
