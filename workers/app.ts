import { createRequestHandler, type ServerBuild } from "@remix-run/cloudflare";
import { Hono } from "hono";
// @ts-ignore -- the Remix server build exists only after `npm run build`.
import * as build from "../build/server/index.js";
import { AUTH_BASE_PATH } from "#app/utils/auth.server.ts";
import { consumeRateLimit, RATE_LIMIT_MESSAGE, RATE_LIMITED_AUTH_PATHS } from "#app/utils/rate-limit.server.ts";
import { cloudflareContext, getLoadContext } from "./load-context.ts";
import { securityEvent } from "#app/utils/log.server.ts";
import { log, requestLog } from "./middleware/request-log.ts";
import { countD1RoundTrips } from "./middleware/d1-round-trips.ts";
import { passportEdgeCache } from "./middleware/passport-cache.ts";
import { sameOriginMutations, securityHeaders } from "./middleware/security.ts";
import { mediaRoutes } from "./routes/media.ts";
import { passportCardRoutes } from "./routes/passport-card.ts";
import { NOTIFICATION_SOCKET_PATH, notificationSocketRoutes } from "./routes/notification-socket.ts";
import { STRIPE_WEBHOOK_PATH, stripeWebhookRoutes } from "./routes/stripe-webhook.ts";
import { scheduled } from "./scheduled.ts";
import type { WorkerEnv } from "./types.ts";

/**
 * The auth library's HTTP endpoints that are served (method and path); anything else is 404.
 * The product's own forms (Remix actions) sign up, confirm, resend and change passwords through
 * the server-side API, with the app's validation, profiles and archive rules. Serving the rest of
 * the library's HTTP API would skip those: GET /verify-email confirms and signs in from a link
 * (a login CSRF), /sign-up/email makes accounts without a profile or our name limits,
 * /update-user and /change-password work for archived accounts.
 */
export const AUTH_API_ENDPOINTS = new Set([
  `GET ${AUTH_BASE_PATH}/ok`,
  `GET ${AUTH_BASE_PATH}/get-session`,
  `POST ${AUTH_BASE_PATH}/sign-in/email`,
  `POST ${AUTH_BASE_PATH}/sign-out`,
]);
const AUTHENTICATING_ENDPOINTS = new Set([`${AUTH_BASE_PATH}/sign-in/email`]);

const handleRemixRequest = createRequestHandler(build as unknown as ServerBuild);

export const app = new Hono<WorkerEnv>()
  .use(requestLog)
  .use(securityHeaders)
  .use(sameOriginMutations)
  .use(countD1RoundTrips)
  .use(passportEdgeCache)
  .on(["GET", "POST"], `${AUTH_BASE_PATH}/*`, async (c) => {
    const path = new URL(c.req.url).pathname;
    // Only the endpoints the product offers; the rest of the library's API (a GET that confirms an
    // address and signs in, profile and account changes that skip our validation) is not served.
    if (!AUTH_API_ENDPOINTS.has(`${c.req.method} ${path}`))
      return c.json({ code: "NOT_FOUND", message: "Not found" }, 404);
    const context = getLoadContext({
      request: c.req.raw,
      context: cloudflareContext(c),
      requestId: c.get("requestId"),
    });
    const limited = RATE_LIMITED_AUTH_PATHS[path];
    if (c.req.method === "POST" && limited && !(await consumeRateLimit(context.db, c.req.raw, limited))) {
      securityEvent("auth.failed", {
        reason: "rate limited",
        action: limited,
        route: `POST ${path}`,
        requestId: c.get("requestId"),
      });
      return c.json({ code: "RATE_LIMITED", message: RATE_LIMIT_MESSAGE }, 429);
    }
    const response = await context.auth.handler(c.req.raw);
    if (c.req.method === "POST" && AUTHENTICATING_ENDPOINTS.has(path) && [400, 401, 403].includes(response.status)) {
      securityEvent("auth.failed", {
        reason: `auth API answered ${response.status}`,
        route: `POST ${path}`,
        requestId: c.get("requestId"),
      });
    }
    return response;
  })
  .route("/media", mediaRoutes)
  .route("/", passportCardRoutes)
  .route(NOTIFICATION_SOCKET_PATH, notificationSocketRoutes)
  .route(STRIPE_WEBHOOK_PATH, stripeWebhookRoutes)
  .all("*", (c) =>
    handleRemixRequest(
      c.req.raw,
      getLoadContext({
        request: c.req.raw,
        context: cloudflareContext(c),
        nonce: c.get("nonce"),
        requestId: c.get("requestId"),
      }),
    ),
  );

app.onError((error, c) => {
  log("error", "unhandled error", {
    requestId: c.get("requestId"),
    error: error instanceof Error ? error.stack : String(error),
  });
  return c.text("Internal Server Error", 500);
});

export { NotificationHub } from "./notification-hub.ts";

export default {
  fetch: app.fetch,
  scheduled,
} satisfies ExportedHandler<Env>;
