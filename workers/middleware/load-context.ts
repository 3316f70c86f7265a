import type { MiddlewareHandler } from "hono";
import { d1BookmarkCookieHeader, readD1Bookmark } from "#app/utils/cookies.server.ts";
import { hasSessionCookie, isSessionCookieLine } from "#app/utils/session.server.ts";
import { withPassportChangeScope } from "#app/utils/passport-cache.server.ts";
import { appEnvOf, d1StartOf, getLoadContext } from "../load-context.ts";
import type { WorkerEnv } from "../types.ts";

/**
 * Builds the request's load context once, for Remix and every sub-app alike
 * (`c.get("loadContext")`), with its D1 session started from the browser's bookmark cookie.
 * Afterwards a signed-in browser (or one signing in or out) is handed the session's latest
 * bookmark; its next request starts from it and so reads its own writes, even from a replica
 * (docs/decisions/029). Anyone else never gets the cookie: an anonymous page view stays
 * shareable by the edge cache, and an anonymous form (a failed sign-in, a sign-up) leads to
 * pages that read nothing it wrote, while its next form starts at the primary anyway.
 */
export const loadContext: MiddlewareHandler<WorkerEnv> = async (c, next) => {
  const request = c.req.raw;
  const env = appEnvOf(c.env);
  const carried = await readD1Bookmark(env, request);
  const context = getLoadContext({
    request,
    context: { cloudflare: { env: c.env, ctx: c.executionCtx, cf: request.cf } },
    nonce: c.get("nonce"),
    requestId: c.get("requestId"),
    d1Start: d1StartOf(request, carried),
  });
  c.set("loadContext", context);
  // A passport change records the bookmark its writes reached, here and in the user's hub (invalidatePassports).
  await withPassportChangeScope({ bookmark: context.d1Bookmark, hubs: c.env.PERSON_HUB }, next);

  const bookmark = context.d1Bookmark();
  // A WebSocket upgrade's response takes no headers (the socket never writes to D1 anyway), and
  // a public response (credentials, cards, media) is the same for everyone: no cookie of anyone's.
  if (!bookmark || bookmark === carried || c.res.status === 101) return;
  if (/\bpublic\b/.test(c.res.headers.get("Cache-Control") ?? "")) return;
  const signedIn = hasSessionCookie(request) || c.res.headers.getSetCookie().some(isSessionCookieLine);
  if (!signedIn) return;
  const cookie = await d1BookmarkCookieHeader(env, request, bookmark);
  try {
    c.res.headers.append("Set-Cookie", cookie);
  } catch {
    // A response from fetch() or the cache has immutable headers: answer with a copy.
    const copy = new Response(c.res.body, c.res);
    copy.headers.append("Set-Cookie", cookie);
    c.res = copy;
  }
};
