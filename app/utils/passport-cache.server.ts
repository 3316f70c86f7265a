// Rendered public passports are kept in the edge cache (the Workers Cache API), keyed by user
// and page. Every change that alters what a passport shows deletes its entries before the
// change's response returns, so the next visitor gets a fresh page.

/** A fixed origin for cache keys, so actions, the cron and the Worker all name entries alike. */
const CACHE_ORIGIN = "https://passport-cache.invalid";
const PASSPORT_PATH = /^\/passport\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/**
 * The pages of one passport with a fixed address: the first entries, the first page of the full
 * list (?all=1) and the print view with every entry (/print). The full list's later pages are
 * addressed by keyset cursors (`?all=1&after=…`, `?all=1&before=…`), which cannot be listed:
 * they are stored under the passport's current generation (see `passportGeneration`).
 */
const FIXED_PAGES = ["", "?all=1", "/print"];
const CURSOR_PAGE = /^\?all=1&(after|before)=([A-Za-z0-9_-]{1,800})$/;
/** Each page is rendered with the cookie banner (no choice made yet) or without it. */
const BANNER_STATES = ["banner", "no-banner"] as const;

/** How long the edge keeps a page, and how long it may serve it stale while it refreshes. */
const PASSPORT_EDGE_CACHE_CONTROL = "public, max-age=0, s-maxage=300, stale-while-revalidate=600";
/** Browsers always ask again, so a change shows on the next visit. */
export const PASSPORT_BROWSER_CACHE_CONTROL = "public, max-age=0, must-revalidate";

const keyOf = (userId: string, page: string, banner: (typeof BANNER_STATES)[number], generation?: string) =>
  `${CACHE_ORIGIN}/passport/${userId.toLowerCase()}/${generation ? `g${generation}/` : ""}${banner}${page}`;
/** A passport's link preview image (workers/routes/passport-card.ts), purged with its pages. */
export const passportCardCacheKey = (userId: string) => `${CACHE_ORIGIN}/passport/${userId.toLowerCase()}/card.png`;
export const LANDING_CARD_CACHE_KEY = `${CACHE_ORIGIN}/card.png`;
/** Per user, when its passport last changed: a render that started before then is not stored. */
const changeMarkerKey = (userId: string) => `${CACHE_ORIGIN}/passport/${userId.toLowerCase()}/changed`;
const CHANGED_AT_HEADER = "X-Passport-Changed-At";

/**
 * Every address of a passport that is cached with a fixed URL, on `origin`: its fixed pages and
 * its link preview card. The one list of what belongs to a passport; its cursor pages are
 * retired with the generation marker (`passportGenerationKey`), which goes with them.
 */
export function passportUrls(userId: string, origin = CACHE_ORIGIN) {
  const base = `${origin}/passport/${userId.toLowerCase()}`;
  return [...FIXED_PAGES.map((page) => `${base}${page}`), `${base}/card.png`];
}

/**
 * The user and page of a public passport URL, or null for any other URL (or query). `paged`
 * marks a cursor page of the full list, whose cache key needs the passport's generation.
 */
export function passportPage(url: URL) {
  const path = url.pathname.endsWith("/print") ? url.pathname.slice(0, -"/print".length) : url.pathname;
  const match = PASSPORT_PATH.exec(path);
  if (!match) return null;
  const page = `${url.pathname.slice(path.length)}${url.search}`;
  if (FIXED_PAGES.includes(page)) return { userId: match[1]!, page, paged: false };
  return CURSOR_PAGE.test(page) ? { userId: match[1]!, page, paged: true } : null;
}

/**
 * A page's cache entry: it is rendered with the cookie banner or, once a choice is made, without.
 * A cursor page's key carries the passport's generation (from `passportGeneration`).
 */
export function passportCacheEntry(
  { userId, page }: { userId: string; page: string },
  cookieChoiceMade: boolean,
  generation?: string,
) {
  return { userId, key: keyOf(userId, page, cookieChoiceMade ? "no-banner" : "banner", generation) };
}

/**
 * The passport's generation: when it last changed, from its change marker. Cursor pages are
 * stored under it, so a change (a new marker) retires every one of them at once, however many
 * cursors visitors followed. A data centre without a marker (none yet, expired, or purged with
 * the passport) starts a new generation, so pages stored before can never come back.
 */
export async function passportGeneration(userId: string) {
  const marker = await edgeCache().match(changeMarkerKey(userId));
  const changedAt = marker?.headers.get(CHANGED_AT_HEADER);
  if (changedAt) return changedAt;
  // One millisecond back: the render this generation is started for began after it.
  const startedAt = String(Date.now() - 1);
  await edgeCache().put(changeMarkerKey(userId), changeMarker(startedAt));
  return startedAt;
}
/** The cache key of the marker that names a passport's generation (purged with its pages). */
export const passportGenerationKey = (userId: string) => changeMarkerKey(userId);

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
  await Promise.all(
    userIds.flatMap((userId) => [
      // A new generation: every cursor page stored under the old one is unreachable.
      edgeCache().put(changeMarkerKey(userId), changeMarker(changedAt)),
      edgeCache().delete(passportCardCacheKey(userId)),
      ...FIXED_PAGES.flatMap((page) => BANNER_STATES.map((banner) => edgeCache().delete(keyOf(userId, page, banner)))),
    ]),
  );
}

/** The marker outlives any render in flight (a Worker request cannot run for minutes) and any stored page. */
const changeMarker = (changedAt: string) =>
  new Response("", { headers: { "Cache-Control": "s-maxage=300", [CHANGED_AT_HEADER]: changedAt } });
