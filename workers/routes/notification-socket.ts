import { Hono } from "hono";
import { isOwnOrigin } from "../middleware/security.ts";
import { findSignedIn } from "#app/utils/session.server.ts";
import { securityEvent } from "#app/utils/log.server.ts";
import { hubStub } from "#app/utils/person-hub.server.ts";
import type { WorkerEnv } from "../types.ts";

export const NOTIFICATION_SOCKET_PATH = "/api/notifications/socket";

// Authenticates the upgrade from the session cookie, then hands it to that user's hub.
export const notificationSocketRoutes = new Hono<WorkerEnv>().get("/", async (c) => {
  if (c.req.header("Upgrade") !== "websocket") {
    return c.text("Expected a WebSocket upgrade", 426);
  }
  const origin = c.req.header("Origin");
  if (!origin || !isOwnOrigin(c, origin)) {
    securityEvent("csrf.refused", {
      reason: origin ? "foreign origin" : "missing origin",
      origin: origin ?? null,
      route: `GET ${NOTIFICATION_SOCKET_PATH}`,
      requestId: c.get("requestId"),
    });
    return c.text("Forbidden", 403);
  }

  const context = c.get("loadContext");
  const signedIn = await findSignedIn(c.req.raw, context);
  if (!signedIn) {
    securityEvent("authz.denied", {
      reason: "signed out",
      status: 401,
      route: `GET ${NOTIFICATION_SOCKET_PATH}`,
      requestId: c.get("requestId"),
    });
    return c.text("Unauthorized", 401);
  }
  // An archived account is signed out everywhere but Settings: it gets no live feed either.
  const { user, session, profile } = signedIn;
  if (!profile || profile.deletedAt) {
    securityEvent("authz.denied", {
      reason: "archived account",
      status: 403,
      route: `GET ${NOTIFICATION_SOCKET_PATH}`,
      userId: user.id,
      requestId: c.get("requestId"),
    });
    return c.text("Forbidden", 403);
  }

  const hub = hubStub(c.env.PERSON_HUB, user.id);
  const headers = new Headers(c.req.raw.headers);
  headers.set("X-User-Id", user.id);
  // The socket belongs to this session: it closes when the session ends (decision 058).
  headers.set("X-Session-Id", session.id);
  headers.set("X-Session-Expires-At", String(session.expiresAt.getTime()));
  return hub.fetch(new Request(c.req.raw.url, { headers }));
});
