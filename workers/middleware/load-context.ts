import type { MiddlewareHandler } from "hono";
import { d1BookmarkCookieHeader, readD1Bookmark } from "#app/utils/cookies.server.ts";
import { hasSessionCookie, isSessionCookieLine } from "#app/utils/session.server.ts";
import { appEnvOf, d1StartOf, getLoadContext } from "../load-context.ts";
import type { WorkerEnv } from "../types.ts";
import { isSafeMethod } from "./security.ts";

/**
 * Builds the request's load context once, for Remix and every sub-app alike
 * (`c.get("loadContext")`), with its D1 session started from the browser's bookmark cookie.
 * Afterwards the browser is handed the session's latest bookmark when it is someone who writes:
 * a signed-in person (or one signing in or out) and any mutation. Its next request starts from
 * that bookmark and so reads its own writes, even from a replica (docs/decisions/029). An
 * anonymous page view never gets the cookie, so its response stays shareable by the edge cache.
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
  await next();

  const bookmark = context.d1Bookmark();
  // A WebSocket upgrade's response takes no headers; the socket never writes to D1 anyway.
  if (!bookmark || bookmark === carried || c.res.status === 101) return;
  const writer =
    !isSafeMethod(c.req.method) || hasSessionCookie(request) || c.res.headers.getSetCookie().some(isSessionCookieLine);
  if (!writer) return;
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
