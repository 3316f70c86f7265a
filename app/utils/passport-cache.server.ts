// Rendered public passports are kept in the edge cache (the Workers Cache API), keyed by their
// public URL on the app's own origin. Every change that alters what a passport shows deletes its
// entries before the change's response returns, so the next visitor gets a fresh page: here at
// once, and in every other data centre through Cloudflare's purge API when the zone is
// configured (cache-purge.server.ts; without it, the edge TTL below is the bound).

import { AsyncLocalStorage } from "node:async_hooks";
import { purgeEverywhere, type CachePurgeEnv } from "./cache-purge.server.ts";
import { log } from "./log.server.ts";
import { lastPassportChange, recordPassportChange } from "./person-hub.server.ts";

/**
 * What the cache needs of the environment: the app's origin, the zone to purge, and whether this
 * is production (AppEnv's fail-closed reading), where a cache without purge is capped.
 */
export type PassportCacheEnv = CachePurgeEnv & { APP_URL?: string; ENVIRONMENT?: string };

/** Where internal entries (the landing card; every key without an APP_URL) live: never purged by URL. */
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
/**
 * Each page is rendered with the cookie banner (no choice made yet) or without it: the entry
 * without the banner is the page's own URL, the other carries this marker in its query.
 */
const BANNER_PARAM = "cookie-banner";
/** A cursor page's entry carries its passport's generation in its query. */
const GENERATION_PARAM = "generation";

/** How long the edge keeps a page, and how long it may serve it stale while it refreshes. */
const PASSPORT_EDGE_CACHE_CONTROL = "public, max-age=0, s-maxage=300, stale-while-revalidate=600";
/**
 * In production without the purge credentials a change clears only the data centre it ran in;
 * every other copy lives out its TTL. There, every edge-cached passport page, print view and card
 * is kept at most this long (decision 073), so a hidden achievement is gone everywhere in a minute.
 */
export const UNPURGED_EDGE_TTL_SECONDS = 60;

/** Whether a change can reach every data centre's copy: the zone's purge API is configured. */
const purgesEverywhere = (env: PassportCacheEnv) => Boolean(env.CLOUDFLARE_ZONE_ID && env.CLOUDFLARE_API_TOKEN);
/** Whether edge copies are capped at UNPURGED_EDGE_TTL_SECONDS: production that cannot purge them. */
export const edgeTtlCapped = (env: PassportCacheEnv) => env.ENVIRONMENT === "production" && !purgesEverywhere(env);

/** The Cache-Control a passport page is stored at the edge with. */
export const passportEdgeCacheControl = (env: PassportCacheEnv) =>
  edgeTtlCapped(env) ? `public, max-age=0, s-maxage=${UNPURGED_EDGE_TTL_SECONDS}` : PASSPORT_EDGE_CACHE_CONTROL;

/** The edge lifetime of anything else cached per passport (its card): `seconds`, or capped. */
export const passportEdgeSeconds = (env: PassportCacheEnv, seconds: number) =>
  edgeTtlCapped(env) ? Math.min(seconds, UNPURGED_EDGE_TTL_SECONDS) : seconds;

/** Browsers always ask again, so a change shows on the next visit. */
export const PASSPORT_BROWSER_CACHE_CONTROL = "public, max-age=0, must-revalidate";

const passportPath = (userId: string) => `/passport/${userId.toLowerCase()}`;
const passportCardPath = (userId: string) => `${passportPath(userId)}/card.png`;
/** Per user, when its passport last changed: a render that started before then is not stored. */
const changeMarkerPath = (userId: string) => `${passportPath(userId)}/changed`;

/**
 * Every public URL of one passport with a fixed address (its fixed pages and its link preview
 * image), relative to the app's origin: the one list that the cache, the local delete and the
 * global purge work from, so a page added here is cached, deleted and purged alike.
 */
export function passportUrls(userId: string) {
  return [...FIXED_PAGES.map((page) => `${passportPath(userId)}${page}`), passportCardPath(userId)];
}

/**
 * The origin cache keys are made on: the app's public origin, so that Cloudflare's purge by URL
 * (which only reaches entries keyed on the zone's own host) finds them.
 */
export const passportCacheOrigin = (env: { APP_URL?: string }) =>
  env.APP_URL ? new URL(env.APP_URL).origin : CACHE_ORIGIN;

const keyOf = (origin: string, url: string, withBanner: boolean, generation?: string) => {
  const key = new URL(url, origin);
  if (generation) key.searchParams.set(GENERATION_PARAM, generation);
  if (withBanner) key.searchParams.set(BANNER_PARAM, "1");
  return key.href;
};
/** Every cache entry of one passport with a fixed key: both renderings of each fixed page, and the card. */
function passportCacheKeys(origin: string, userId: string) {
  const card = passportCardPath(userId);
  return passportUrls(userId).flatMap((url) =>
    url === card ? [keyOf(origin, url, false)] : [keyOf(origin, url, false), keyOf(origin, url, true)],
  );
}

/** A passport's link preview image (workers/routes/passport-card.ts), purged with its pages. */
export const passportCardCacheKey = (origin: string, userId: string) => keyOf(origin, passportCardPath(userId), false);
export const LANDING_CARD_CACHE_KEY = `${CACHE_ORIGIN}/card.png`;
const changeMarkerKey = (origin: string, userId: string) => keyOf(origin, changeMarkerPath(userId), false);
const CHANGED_AT_HEADER = "X-Passport-Changed-At";
/** The D1 bookmark of the change a marker records: a render that read an older replica is not stored. */
const CHANGED_BOOKMARK_HEADER = "X-Passport-Changed-Bookmark";

/**
 * What a request that changes passports needs to record the change (the Worker's load context
 * provides it for every request): the D1 bookmark its writes reached, and the users' hubs, where
 * a change's bookmark is kept for every data centre. So a render which read a replica that had
 * not yet caught up with the change is recognised anywhere and not stored. One store per isolate
 * (a global): the Worker's middleware and the Remix server build each bundle this module.
 */
type ChangeScope = { bookmark: () => D1SessionBookmark | null; hubs: Env["PERSON_HUB"] };
const changeScope: AsyncLocalStorage<ChangeScope> = ((
  globalThis as unknown as Record<symbol, AsyncLocalStorage<ChangeScope>>
)[Symbol.for("career-passport.passport-change-scope")] ??= new AsyncLocalStorage());
export const withPassportChangeScope = <T>(scope: ChangeScope, work: () => Promise<T>) => changeScope.run(scope, work);

/**
 * A change's bookmark is kept in the hubs of at most this many users: a change of more passports at
 * once (an account purge touching many owners) relies on the edge TTL elsewhere, as before.
 */
const RECORDED_CHANGES_MAX = 50;

/**
 * The build a stored page was rendered by (Remix's asset manifest version). A page names its
 * stylesheet by the hashed file of that build; once a deploy replaces the build, that file may no
 * longer be served, so a page of another build is not served either: it is rendered again.
 */
export const PASSPORT_BUILD_HEADER = "X-Passport-Build";

/**
 * The user and page of a public passport URL, or null for any other URL. A trailing slash and
 * what the page does not read (a tracking parameter, a cursor without the full list) name the
 * same page as its own address (issue 43): the query is rebuilt from what the routes read. `paged`
 * marks a cursor page of the full list, whose cache key needs the passport's generation; `url` is
 * the page's own address, which a render is made for.
 */
export function passportPage(url: URL) {
  const pathname = url.pathname.replace(/\/+$/, "");
  const path = pathname.endsWith("/print") ? pathname.slice(0, -"/print".length) : pathname;
  const match = PASSPORT_PATH.exec(path);
  if (!match) return null;
  const page = `${pathname.slice(path.length)}${path === pathname ? pageQuery(url.searchParams) : ""}`;
  const own = { userId: match[1]!, page, url: `${url.origin}${path}${page}` };
  if (FIXED_PAGES.includes(page)) return { ...own, paged: false };
  return CURSOR_PAGE.test(page) ? { ...own, paged: true } : null;
}

/** The query of the first entries ("") or of the full list and its cursor, as its links write it. */
function pageQuery(params: URLSearchParams) {
  if (params.get("all") !== "1") return "";
  // A cursor back wins over one forward, as in `pageRequestFrom`.
  const cursor = params.has("before") ? "before" : params.has("after") ? "after" : null;
  return cursor ? `?all=1&${cursor}=${params.get(cursor)}` : "?all=1";
}

/**
 * A page's cache entry: it is rendered with the cookie banner or, once a choice is made, without.
 * A cursor page's key carries the passport's generation (from `passportGeneration`).
 */
export function passportCacheEntry(
  { userId, page }: { userId: string; page: string },
  cookieChoiceMade: boolean,
  origin: string,
  generation?: string,
) {
  return { userId, origin, key: keyOf(origin, `${passportPath(userId)}${page}`, !cookieChoiceMade, generation) };
}

/**
 * The passport's generation: when it last changed, from its change marker. Cursor pages are
 * stored under it, so a change (a new marker) retires every one of them at once, however many
 * cursors visitors followed. A data centre without a marker (none yet, expired, or purged with
 * the passport) starts a new generation, so pages stored before can never come back.
 */
export async function passportGeneration(origin: string, userId: string) {
  const marker = await edgeCache().match(changeMarkerKey(origin, userId));
  const changedAt = marker?.headers.get(CHANGED_AT_HEADER);
  if (changedAt) return changedAt;
  // One millisecond back: the render this generation is started for began after it.
  const startedAt = String(Date.now() - 1);
  await edgeCache().put(changeMarkerKey(origin, userId), changeMarker(startedAt));
  return startedAt;
}

/** The marker outlives any render in flight (a Worker request cannot run for minutes) and any stored page. */
const changeMarker = (changedAt: string, bookmark: D1SessionBookmark | null = null) =>
  new Response("", {
    headers: {
      "Cache-Control": "s-maxage=300",
      [CHANGED_AT_HEADER]: changedAt,
      ...(bookmark ? { [CHANGED_BOOKMARK_HEADER]: bookmark } : {}),
    },
  });

/**
 * The issuer generation (decision 093): one marker for every passport. Who stands behind an
 * issuer's name (a verified domain, the mark beside a copycat name) shows on the cards of every
 * person an organisation gave to, endorsed or is named by in an import: a domain verified, lapsed
 * or removed would otherwise mean invalidating up to every member's passport. Instead each page is
 * stored with the generation its render began under, a hit counts only under the current one, and
 * such a change starts a new generation: every stored page is rendered again on its next visit. The
 * marker is read beside the page (in parallel, from the same edge cache): no D1 read on a hit.
 */
const ISSUER_MARKER_PATH = "/passport/issuer-identities";
const ISSUER_GENERATION_HEADER = "X-Passport-Issuer-Generation";
/** Kept longer than any page, so that its expiry rarely retires pages before their own does. */
const ISSUER_MARKER_CACHE_CONTROL = "s-maxage=86400";
const issuerMarkerKey = (origin: string) => keyOf(origin, ISSUER_MARKER_PATH, false);
const newGeneration = () => `${Date.now()}-${crypto.randomUUID().slice(0, 8)}`;
const issuerMarker = (generation: string, bookmark: D1SessionBookmark | null = null) =>
  new Response("", {
    headers: {
      "Cache-Control": ISSUER_MARKER_CACHE_CONTROL,
      [CHANGED_AT_HEADER]: generation,
      ...(bookmark ? { [CHANGED_BOOKMARK_HEADER]: bookmark } : {}),
    },
  });

/**
 * The current issuer generation here, with the D1 bookmark of the change that began it. A data
 * centre without a marker (none yet, expired, or purged by a change elsewhere) starts a new one, so
 * pages stored before can never come back.
 */
export async function issuerGeneration(origin: string) {
  const marker = await edgeCache().match(issuerMarkerKey(origin));
  const generation = marker?.headers.get(CHANGED_AT_HEADER);
  let issuers = { generation: generation ?? newGeneration(), bookmark: null as string | null };
  if (generation) issuers = { generation, bookmark: marker!.headers.get(CHANGED_BOOKMARK_HEADER) };
  else await edgeCache().put(issuerMarkerKey(origin), issuerMarker(issuers.generation));
  issuerMemo()[origin] = { readAt: Date.now(), generation: issuers.generation };
  return issuers;
}

/**
 * The issuer generation this isolate read in the last second, to check a hit against: under load
 * a hit then reads the marker about once a second, not beside every page (that second cache read
 * had taken the cached passport from 1.5× to 1.8× a static asset at 32 connections). A render
 * always reads the marker afresh. Kept on `globalThis`, so that a change made in this isolate (by
 * the Remix build's copy of this module) clears it at once; one made elsewhere is seen within the
 * second after its purge arrives.
 */
const ISSUER_MEMO_MS = 1000;
const issuerMemo = () =>
  ((globalThis as { [ISSUER_MEMO]?: Record<string, { readAt: number; generation: string }> })[ISSUER_MEMO] ??= {});
const ISSUER_MEMO = Symbol.for("career-passport.issuer-generation");
export function recentIssuerGeneration(origin: string) {
  const memo = issuerMemo()[origin];
  return memo && Date.now() - memo.readAt < ISSUER_MEMO_MS ? { generation: memo.generation } : null;
}

/** Whether a stored page was rendered under the current issuer generation (and by this build). */
export const passportPageCurrent = (page: Response, build: string, issuers: { generation: string }) =>
  page.headers.get(PASSPORT_BUILD_HEADER) === build &&
  page.headers.get(ISSUER_GENERATION_HEADER) === issuers.generation;

/**
 * Retires every stored passport page at once, here and (with the purge API) everywhere: an
 * issuer's identity changed (decision 093). One marker written and one URL purged, however many
 * passports show the issuer. A failed purge is logged, never thrown, as in `invalidatePassports`.
 */
export async function invalidateIssuerIdentities(env: PassportCacheEnv) {
  if (typeof caches === "undefined") return;
  const origin = passportCacheOrigin(env);
  const bookmark = changeScope.getStore()?.bookmark() ?? null;
  await edgeCache().put(issuerMarkerKey(origin), issuerMarker(newGeneration(), bookmark));
  delete issuerMemo()[origin];
  await purgeEverywhere(env, [issuerMarkerKey(origin)]);
}

/** The Worker's edge cache (the DOM typings of `caches` do not know `default`). */
export const edgeCache = () => (caches as unknown as { default: Cache }).default;

/** How a page was rendered: when it began, by which build, and the D1 bookmark its reads ended at. */
export type PassportRender = {
  startedAt: number;
  build: string;
  /** The render's D1 session bookmark (null when it read nothing from D1). */
  readBookmark: D1SessionBookmark | null;
  cacheControl: string;
  /** The issuer generation the render began under (`issuerGeneration`). */
  issuerGeneration: string;
};

/**
 * Stores a rendered page, unless its passport changed after the render began (a visit that read
 * the old data can finish after the change's invalidation, and must not put the old page back),
 * or the render read a replica older than that change (D1 bookmarks sort oldest to newest).
 */
export async function storePassportPage(
  entry: { userId: string; origin: string; key: string },
  page: ArrayBuffer,
  headers: Headers,
  render: PassportRender,
  hubs: Env["PERSON_HUB"],
) {
  const readBefore = (change: string | null | undefined) =>
    Boolean(change && render.readBookmark !== null && render.readBookmark < change);
  // Another data centre's change: its marker here was purged, its bookmark is in the user's hub.
  // Asked after the visitor has their page; a hub that cannot answer stores nothing.
  if (render.readBookmark !== null) {
    const change = await lastPassportChange(hubs, entry.userId).catch((error: unknown) => {
      log("warn", "passport change not read; page not stored", { userId: entry.userId, error: String(error) });
      return undefined;
    });
    if (change === undefined || readBefore(change)) return;
  }
  // This data centre's marker last, just before the write: a change here while the hub was asked
  // has deleted the page and left its marker, which the render must not slip past.
  const marker = await edgeCache().match(changeMarkerKey(entry.origin, entry.userId));
  if (marker && Number(marker.headers.get(CHANGED_AT_HEADER)) >= render.startedAt) return;
  if (readBefore(marker?.headers.get(CHANGED_BOOKMARK_HEADER))) return;
  // Nor one begun under an older issuer generation, or that read a replica older than its change.
  const issuers = await edgeCache().match(issuerMarkerKey(entry.origin));
  if (issuers?.headers.get(CHANGED_AT_HEADER) !== render.issuerGeneration) return;
  if (readBefore(issuers.headers.get(CHANGED_BOOKMARK_HEADER))) return;
  const stored = new Response(page, { headers });
  stored.headers.set("Cache-Control", render.cacheControl);
  stored.headers.set(PASSPORT_BUILD_HEADER, render.build);
  stored.headers.set(ISSUER_GENERATION_HEADER, render.issuerGeneration);
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
  const markers = userIds.map((userId) => changeMarkerKey(origin, userId));
  const changedAt = String(Date.now());
  // The change's writes are behind it: the request's bookmark now includes them.
  const scope = changeScope.getStore();
  const bookmark = scope?.bookmark() ?? null;
  const recorded = bookmark && scope && userIds.length <= RECORDED_CHANGES_MAX ? userIds : [];
  await Promise.all([
    // For every data centre: the hubs keep the change's bookmark. A failure is logged; the edge
    // TTL then bounds what other places show, as without it.
    ...recorded.map((userId) =>
      recordPassportChange(scope!.hubs, userId, bookmark!).catch((error: unknown) =>
        log("error", "passport change not recorded", { userId, error: String(error) }),
      ),
    ),
    // A new generation here: every cursor page stored under the old one is unreachable.
    ...markers.map((marker) => edgeCache().put(marker, changeMarker(changedAt, bookmark))),
    ...keys.map((key) => edgeCache().delete(key)),
    // Elsewhere the markers go too: a data centre without one starts a new generation, which
    // retires the cursor pages it stored.
    purgeEverywhere(env, [...keys, ...markers]),
  ]);
}
