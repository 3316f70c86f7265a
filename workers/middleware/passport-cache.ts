import type { MiddlewareHandler } from "hono";
import {
  edgeCache,
  PASSPORT_BROWSER_CACHE_CONTROL,
  PASSPORT_EDGE_CACHE_CONTROL,
  passportCacheKey,
} from "#app/utils/passport-cache.server.ts";
import { readPreferences } from "#app/utils/cookies.server.ts";
import { hasSessionCookie } from "#app/utils/session.server.ts";
import type { WorkerEnv } from "../types.ts";

/**
 * Serves public passports from the edge cache and fills it. A visitor with a session (who may
 * be the owner) or a toast to show always gets a fresh, private page; `Cache-Control: no-cache`
 * asks for a fresh render, which then replaces the cached one. X-Passport-Cache says which.
 */
export const passportEdgeCache: MiddlewareHandler<WorkerEnv> = async (c, next) => {
  const url = new URL(c.req.url);
  if (c.req.method !== "GET" || !passportCacheKey(url, false)) return next();
  // The page differs only by whether the cookie banner shows: one entry for each.
  const { cookieConsent } = await readPreferences(c.req.raw);
  const key = passportCacheKey(url, cookieConsent !== null)!;
  const personal = hasSessionCookie(c.req.raw) || /(?:^|;\s*)passport_toast=/.test(c.req.header("Cookie") ?? "");
  const refresh = /\bno-cache\b/.test(c.req.header("Cache-Control") ?? "");

  if (!personal && !refresh) {
    const hit = await edgeCache().match(key);
    if (hit) {
      // Visitors' pages carry no script (see the routes' `hydrate`), so a stored page holds no
      // nonce that could go stale: this response's CSP nonce simply has nothing to match.
      c.res = new Response(hit.body, hit);
      c.res.headers.set("Cache-Control", PASSPORT_BROWSER_CACHE_CONTROL);
      c.res.headers.set("X-Passport-Cache", "HIT");
      return;
    }
  }

  await next();
  const response = new Response(c.res.body, c.res);
  if (!personal && response.status === 200 && !response.headers.has("Set-Cookie")) {
    c.executionCtx.waitUntil(store(key, response.clone()));
  }
  response.headers.set("Cache-Control", personal ? "private, no-store" : PASSPORT_BROWSER_CACHE_CONTROL);
  response.headers.set("X-Passport-Cache", personal || refresh ? "BYPASS" : "MISS");
  c.res = response;
};

async function store(key: string, response: Response) {
  const stored = new Response(response.body, response);
  stored.headers.set("Cache-Control", PASSPORT_EDGE_CACHE_CONTROL);
  await edgeCache().put(key, stored);
}
