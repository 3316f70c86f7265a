import { Hono } from "hono";
import { AUTH_BASE_PATH } from "#app/utils/auth.server.ts";
import type { WorkerEnv } from "../types.ts";

export { AUTH_BASE_PATH };

/**
 * The auth library's HTTP endpoints that are served (method and path); anything else is 404.
 * The product's own forms (Remix actions) sign in, sign up, confirm, resend, reset and change
 * passwords and sign out through the server-side API, with the app's validation, profiles,
 * archive rules, rate limits and socket closing. Serving the library's own versions would skip
 * those: GET /verify-email confirms and signs in from a link (a login CSRF), /sign-up/email makes
 * accounts without a profile, /sign-in/email would let an archived account in past the archive
 * screen, /sign-out would leave its notification sockets open. What remains only reads.
 */
export const AUTH_API_ENDPOINTS = new Set([`GET ${AUTH_BASE_PATH}/ok`, `GET ${AUTH_BASE_PATH}/get-session`]);

// /api/auth/*: only the endpoints the product offers, answered by the auth library.
export const authRoutes = new Hono<WorkerEnv>().on(["GET", "POST"], "/*", (c) => {
  if (!AUTH_API_ENDPOINTS.has(`${c.req.method} ${new URL(c.req.url).pathname}`))
    return c.json({ code: "NOT_FOUND", message: "Not found" }, 404);
  return c.get("loadContext").auth.handler(c.req.raw);
});
