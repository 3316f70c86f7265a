import type { MiddlewareHandler } from "hono";
import {
  edgeCache,
  issuerGeneration,
  recentIssuerGeneration,
  PASSPORT_BROWSER_CACHE_CONTROL,
  passportCacheEntry,
  passportCacheOrigin,
  passportEdgeCacheControl,
  passportGeneration,
  passportPage,
  passportPageCurrent,
  storePassportPage,
} from "#app/utils/passport-cache.server.ts";
import { readPreferences } from "#app/utils/cookies.server.ts";
import { hasVerifiedSessionCookie } from "#app/utils/session.server.ts";
import type { WorkerEnv } from "../types.ts";
import { setResponseHeaders } from "./response-headers.ts";

/**
 * Serves public passports from the edge cache and fills it. Only a visitor whose session cookie
 * carries our signature and whose session is live (who may be the owner) gets a fresh, private
 * page: an unsigned, forged or ended session's cookie, a toast cookie, `Cache-Control: no-cache`,
 * a trailing slash or a query the page does not read are served from the cache like any visit,
 * so no request can make every view a render (issue 34). Only the test entry can ask for a fresh
 * render that is not stored (`renderAfresh`, workers/testing/passport-refresh.ts: the benchmark's
 * uncached figures). A render whose
 * answer says `no-store` (a quiet failure, spec section 8) is not stored either.
 * X-Passport-Cache says which. `build` is the running build's asset version: a page stored by
 * another build (before a deploy) is rendered again, as its stylesheet may be gone.
 */
export const passportEdgeCache =
  (build: string): MiddlewareHandler<WorkerEnv> =>
  async (c, next) => {
    if (c.req.method !== "GET") return next();
    const page = passportPage(new URL(c.req.url));
    if (!page) return next();
    const context = c.get("loadContext");
    // The page differs only by whether the cookie banner shows: one entry for each.
    const { cookieConsent } = await readPreferences(c.req.raw);
    // A signed cookie of an ended session is a visitor's too (issue 43): the session is read (one
    // round trip), as a signed-in visitor's render reads it anyway (once per request).
    const personal = (await hasVerifiedSessionCookie(c.req.raw, context)) && (await context.getUser()) !== null;
    const refresh = c.get("renderAfresh") === true;
    // A cursor page is stored under the passport's generation, which a change replaces. Only a
    // lookup that may use the cache pays for reading it.
    const origin = passportCacheOrigin(context.env);
    const generation = page.paged && !personal && !refresh ? await passportGeneration(origin, page.userId) : undefined;
    const entry = passportCacheEntry(page, cookieConsent !== null, origin, generation);

    // A page stored before an issuer's domain changed is not served (decision 093): a hit is
    // checked against the issuer generation read in the last second, else read now; a render
    // reads it afresh.
    const hit = !personal && !refresh ? await edgeCache().match(entry.key) : undefined;
    const recent = hit ? recentIssuerGeneration(origin) : null;
    const current = (issuers: { generation: string }) => passportPageCurrent(hit!, build, issuers);
    const issuers = !personal && !refresh && !(recent && current(recent)) ? await issuerGeneration(origin) : recent;
    if (hit && issuers) {
      if (current(issuers)) {
        // Visitors' pages carry no script (see the routes' `hydrate`), so a stored page holds no
        // nonce that could go stale: this response's CSP nonce simply has nothing to match.
        c.res = new Response(hit.body, hit);
        setResponseHeaders(c, { "Cache-Control": PASSPORT_BROWSER_CACHE_CONTROL, "X-Passport-Cache": "HIT" });
        return;
      }
      await hit.body?.cancel();
    }

    // Rendered for the page's own address, whatever the visitor added to it: the bytes stored
    // under that address are the page at that address.
    if (c.req.url !== page.url) c.req.raw = new Request(page.url, c.req.raw);
    const renderStartedAt = Date.now();
    await next();
    // A render that could not read everything says so: it is neither stored nor shared. Nor is
    // one that sets a cookie (a toast it showed, now cleared).
    const partial = /\bno-store\b/.test(c.res.headers.get("Cache-Control") ?? "");
    const setsCookie = c.res.headers.has("Set-Cookie");
    // Only a miss fills the cache. A refresh renders for its visitor alone: every change has
    // already deleted the stored page, so writing it again would only repeat the work.
    if (issuers && !partial && !setsCookie && c.res.status === 200) {
      // Read once, then answer and store copies of the same bytes: with a tee'd body, the
      // visitor's response and the cache write would wait on each other.
      const body = await c.res.arrayBuffer();
      c.res = new Response(body, c.res);
      // The headers as rendered: the ones set below and by the outer middleware are per response.
      const render = {
        startedAt: renderStartedAt,
        build,
        readBookmark: context.d1Bookmark(),
        cacheControl: passportEdgeCacheControl(context.env),
        issuerGeneration: issuers.generation,
      };
      c.executionCtx.waitUntil(storePassportPage(entry, body, new Headers(c.res.headers), render, c.env.PERSON_HUB));
    }
    setResponseHeaders(c, {
      "Cache-Control": personal || partial || setsCookie ? "private, no-store" : PASSPORT_BROWSER_CACHE_CONTROL,
      "X-Passport-Cache": personal || refresh || partial ? "BYPASS" : "MISS",
    });
  };
