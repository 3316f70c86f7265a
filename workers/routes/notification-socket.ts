import { Hono } from "hono";
import { getLoadContext } from "../load-context.ts";
import type { WorkerEnv } from "../types.ts";

export const NOTIFICATION_SOCKET_PATH = "/api/notifications/socket";

// Authenticates the upgrade from the session cookie, then hands it to that user's hub.
export const notificationSocketRoutes = new Hono<WorkerEnv>().get("/", async (c) => {
  if (c.req.header("Upgrade") !== "websocket") {
    return c.text("Expected a WebSocket upgrade", 426);
  }
  const url = new URL(c.req.url);
  const origin = c.req.header("Origin");
  const allowed = [url.origin, c.env.APP_URL && new URL(c.env.APP_URL).origin];
  if (!origin || !allowed.includes(origin)) return c.text("Forbidden", 403);

  const context = getLoadContext({
    request: c.req.raw,
    context: { cloudflare: { env: c.env, ctx: c.executionCtx } },
  });
  const user = await context.getUser();
  if (!user) return c.text("Unauthorized", 401);

  const hub = c.env.NOTIFICATIONS.get(c.env.NOTIFICATIONS.idFromName(user.id));
  const headers = new Headers(c.req.raw.headers);
  headers.set("X-User-Id", user.id);
  return hub.fetch(new Request(c.req.raw.url, { headers }));
});
