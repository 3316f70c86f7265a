import { createRequestHandler, type ServerBuild } from "@remix-run/cloudflare";
import { Hono, type ErrorHandler } from "hono";
// @ts-ignore -- the Remix server build exists only after `npm run build`.
import * as build from "../build/server/index.js";
import { log, requestLog } from "./middleware/request-log.ts";
import type { MiddlewareHandler } from "hono";
import { UNEXPECTED_FAILURE } from "#app/utils/form-reply.server.ts";
import { passportEdgeCache } from "./middleware/passport-cache.ts";
import { loadContext } from "./middleware/load-context.ts";
import { bodyCaps } from "./middleware/body-limit.ts";
import { sameOriginMutations, securityHeaders } from "./middleware/security.ts";
import { AUTH_API_ENDPOINTS, AUTH_BASE_PATH, authRoutes } from "./routes/auth.ts";
import { credentialRoutes } from "./routes/credentials.ts";
import { walletExchangeRoutes } from "./routes/wallet-exchange.ts";
import { openid4vciRoutes } from "./routes/openid4vci.ts";
import { mediaRoutes } from "./routes/media.ts";
import { passportCardRoutes } from "./routes/passport-card.ts";
import { NOTIFICATION_SOCKET_PATH, notificationSocketRoutes } from "./routes/notification-socket.ts";
import { STRIPE_WEBHOOK_PATH, stripeWebhookRoutes } from "./routes/stripe-webhook.ts";
import { scheduled } from "./scheduled.ts";
import { queue } from "./media-backup.ts";
import type { WorkerEnv } from "./types.ts";

export { AUTH_API_ENDPOINTS };

const handleRemixRequest = createRequestHandler(build as unknown as ServerBuild);

/**
 * The Worker's app. `testing` is middleware that the test entry (workers/test-app.ts) runs after
 * the security middleware and before everything else: the production entry below passes none, so
 * no test machinery is in the deployed bundle (`npm run worker-size` checks).
 */
export const createApp = (testing: MiddlewareHandler<WorkerEnv>[] = []) => {
  const app = new Hono<WorkerEnv>().use(requestLog).use(securityHeaders).use(sameOriginMutations);
  for (const middleware of testing) app.use(middleware);
  app
    .use(bodyCaps)
    .use(loadContext)
    // After the load context: only a verified session makes a visit personal, and a render's D1
    // bookmark decides whether it may be stored.
    .use(passportEdgeCache(build.assets.version))
    .route(AUTH_BASE_PATH, authRoutes)
    .route("/media", mediaRoutes)
    .route("/", passportCardRoutes)
    // Before credentialRoutes, whose preflight for /credentials/* allows reads only.
    .route("/", walletExchangeRoutes)
    .route("/", openid4vciRoutes)
    .route("/", credentialRoutes)
    .route(NOTIFICATION_SOCKET_PATH, notificationSocketRoutes)
    .route(STRIPE_WEBHOOK_PATH, stripeWebhookRoutes)
    .all("*", (c) => handleRemixRequest(c.req.raw, c.get("loadContext")));
  app.onError(answerUnhandled);
  return app;
};

const answerUnhandled: ErrorHandler<WorkerEnv> = (error, c) => {
  log("error", "unhandled error", {
    requestId: c.get("requestId"),
    error: error instanceof Error ? error.stack : String(error),
  });
  // Never a bare 500: a caller (a wallet, a script) is told what happened and that it may retry
  // (issue 34's fault table), in OAuth's error shape, which the wallet endpoints speak.
  return c.json({ error: "server_error", error_description: UNEXPECTED_FAILURE }, 500);
};

export { PersonHub } from "./person-hub.ts";

export default {
  fetch: createApp().fetch,
  scheduled,
  queue,
} satisfies ExportedHandler<Env>;
