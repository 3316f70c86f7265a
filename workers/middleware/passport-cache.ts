import type { MiddlewareHandler } from "hono";
import {
  edgeCache,
  PASSPORT_BROWSER_CACHE_CONTROL,
  PASSPORT_BUILD_HEADER,
  passportCacheEntry,
  passportCacheOrigin,
  passportGeneration,
  passportPage,
  storePassportPage,
} from "#app/utils/passport-cache.server.ts";
import { hasToastCookie, readPreferences } from "#app/utils/cookies.server.ts";
import { hasSessionCookie } from "#app/utils/session.server.ts";
import type { WorkerEnv } from "../types.ts";
import { setResponseHeaders } from "./response-headers.ts";

/**
 * Serves public passports from the edge cache and fills it. A visitor with a session (who may
 * be the owner) or a toast to show always gets a fresh, private page; `Cache-Control: no-cache`
 * asks for a fresh render (a hard reload, and the benchmark's uncached requests), which is not
 * stored. X-Passport-Cache says which. `build` is the running build's asset version: a page
 * stored by another build (before a deploy) is rendered again, as its stylesheet may be gone.
 */
export const passportEdgeCache =
  (build: string): MiddlewareHandler<WorkerEnv> =>
  async (c, next) => {
    if (c.req.method !== "GET") return next();
    const page = passportPage(new URL(c.req.url));
    if (!page) return next();
    // The page differs only by whether the cookie banner shows: one entry for each.
    const { cookieConsent } = await readPreferences(c.req.raw);
    const personal = hasSessionCookie(c.req.raw) || hasToastCookie(c.req.raw);
    const refresh = /\bno-cache\b/.test(c.req.header("Cache-Control") ?? "");
    // A cursor page is stored under the passport's generation, which a change replaces. Only a
    // lookup that may use the cache pays for reading it.
    const origin = passportCacheOrigin(c.env);
    const generation = page.paged && !personal && !refresh ? await passportGeneration(origin, page.userId) : undefined;
    const entry = passportCacheEntry(page, cookieConsent !== null, origin, generation);

    if (!personal && !refresh) {
      const hit = await edgeCache().match(entry.key);
      if (hit?.headers.get(PASSPORT_BUILD_HEADER) === build) {
        // Visitors' pages carry no script (see the routes' `hydrate`), so a stored page holds no
        // nonce that could go stale: this response's CSP nonce simply has nothing to match.
        c.res = new Response(hit.body, hit);
        setResponseHeaders(c, { "Cache-Control": PASSPORT_BROWSER_CACHE_CONTROL, "X-Passport-Cache": "HIT" });
        return;
      }
    }

    const renderStartedAt = Date.now();
    await next();
    // Only a miss fills the cache. A refresh renders for its visitor alone: every change has
    // already deleted the stored page, so writing it again would only repeat the work.
    if (!personal && !refresh && c.res.status === 200 && !c.res.headers.has("Set-Cookie")) {
      // Read once, then answer and store copies of the same bytes: with a tee'd body, the
      // visitor's response and the cache write would wait on each other.
      const page = await c.res.arrayBuffer();
      c.res = new Response(page, c.res);
      // The headers as rendered: the ones set below and by the outer middleware are per response.
      c.executionCtx.waitUntil(storePassportPage(entry, page, new Headers(c.res.headers), renderStartedAt, build));
    }
    setResponseHeaders(c, {
      "Cache-Control": personal ? "private, no-store" : PASSPORT_BROWSER_CACHE_CONTROL,
      "X-Passport-Cache": personal || refresh ? "BYPASS" : "MISS",
    });
  };
