import { createRequestHandler, type ServerBuild } from "@remix-run/cloudflare";
import { Hono } from "hono";
// @ts-ignore -- the Remix server build exists only after `npm run build`.
import * as build from "../build/server/index.js";
import { AUTH_BASE_PATH } from "#app/utils/auth.server.ts";
import { consumeRateLimit, RATE_LIMIT_MESSAGE, RATE_LIMITED_AUTH_PATHS } from "#app/utils/rate-limit.server.ts";
import { cloudflareContext, getLoadContext } from "./load-context.ts";
import { log, requestLog } from "./middleware/request-log.ts";
import { countD1RoundTrips } from "./middleware/d1-round-trips.ts";
import { passportEdgeCache } from "./middleware/passport-cache.ts";
import { sameOriginMutations, securityHeaders } from "./middleware/security.ts";
import { mediaRoutes } from "./routes/media.ts";
import { NOTIFICATION_SOCKET_PATH, notificationSocketRoutes } from "./routes/notification-socket.ts";
import { STRIPE_WEBHOOK_PATH, stripeWebhookRoutes } from "./routes/stripe-webhook.ts";
import { scheduled } from "./scheduled.ts";
import type { WorkerEnv } from "./types.ts";

const handleRemixRequest = createRequestHandler(build as unknown as ServerBuild);

export const app = new Hono<WorkerEnv>()
  .use(requestLog)
  .use(securityHeaders)
  .use(sameOriginMutations)
  .use(countD1RoundTrips)
  .use(passportEdgeCache)
  .on(["GET", "POST"], `${AUTH_BASE_PATH}/*`, async (c) => {
    const context = getLoadContext({ request: c.req.raw, context: cloudflareContext(c) });
    const limited = RATE_LIMITED_AUTH_PATHS[new URL(c.req.url).pathname];
    if (c.req.method === "POST" && limited && !(await consumeRateLimit(context.db, c.req.raw, limited))) {
      return c.json({ code: "RATE_LIMITED", message: RATE_LIMIT_MESSAGE }, 429);
    }
    return context.auth.handler(c.req.raw);
  })
  .route("/media", mediaRoutes)
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
