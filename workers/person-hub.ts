import { DurableObject } from "cloudflare:workers";
import type { SocketScope } from "#app/utils/hub-message.ts";
import { createDb } from "#db/client.ts";
import { liveSessionsAmong } from "#db/queries/sessions.ts";

/** What each socket remembers through hibernation: whose it is, and the session that opened it. */
type Attachment = { userId: string; sessionId?: string };

const PASSPORT_CHANGE = "passport-change";

const sessionOf = (socket: WebSocket) => (socket.deserializeAttachment() as Attachment | null)?.sessionId;

/**
 * A person's hub, one instance per person (idFromName(userId)). It holds their open tabs as
 * hibernatable WebSockets and pushes each new notification to all of them; D1 stays the source of
 * truth. Each socket belongs to the session that opened it: ending a session closes its sockets,
 * and one alarm, set for the earliest expiry among them, closes those whose session has since
 * ended some other way (unused for 7 days, 30 days old, deleted). Idle sockets cost nothing between.
 * It also keeps the D1 bookmark of the person's last passport change (decision 077): the one place
 * every data centre can ask whether a render read a replica older than that change. Named
 * NotificationHub until it held more than notifications (decision 081, wrangler.toml's v2).
 */
export class PersonHub extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // Answered by the runtime without waking the object.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  async fetch(request: Request): Promise<Response> {
    const userId = request.headers.get("X-User-Id");
    const sessionId = request.headers.get("X-Session-Id");
    const expiresAt = Number(request.headers.get("X-Session-Expires-At"));
    if (request.headers.get("Upgrade") !== "websocket" || !userId || !sessionId || !Number.isFinite(expiresAt)) {
      return new Response("Expected a WebSocket upgrade", { status: 426 });
    }
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, [sessionId]);
    server.serializeAttachment({ userId, sessionId } satisfies Attachment);
    await this.checkBy(expiresAt);
    return new Response(null, { status: 101, webSocket: client });
  }

  /** Sends one message to every open tab of this user; returns how many received it. */
  async broadcast(message: unknown): Promise<number> {
    const payload = JSON.stringify(message);
    let sent = 0;
    for (const socket of this.ctx.getWebSockets()) {
      try {
        socket.send(payload);
        sent++;
      } catch {
        // A socket closing mid-send is dropped; the tab reloads its list when it reconnects.
      }
    }
    return sent;
  }

  /**
   * Closes the sockets of the sessions that ended: all of them (the account's password was reset,
   * it was archived or purged), some (signed out there), or all but one (signed out everywhere
   * else). A tab still signed in reconnects (and is checked again); one that is not, cannot.
   */
  async closeSockets(scope: SocketScope, reason = "session ended"): Promise<number> {
    const sockets =
      "sessions" in scope
        ? scope.sessions.flatMap((sessionId) => this.ctx.getWebSockets(sessionId))
        : "except" in scope
          ? this.ctx.getWebSockets().filter((socket) => sessionOf(socket) !== scope.except)
          : this.ctx.getWebSockets();
    for (const socket of sockets) closeEnded(socket, reason);
    return sockets.length;
  }

  /** Records a change of the user's passport, as far as D1 had it (bookmarks sort oldest to newest). */
  async recordPassportChange(bookmark: string): Promise<void> {
    const last = await this.ctx.storage.get<string>(PASSPORT_CHANGE);
    if (!last || bookmark > last) await this.ctx.storage.put(PASSPORT_CHANGE, bookmark);
  }

  /** The D1 bookmark of the user's last passport change, or null before any. */
  async passportChange(): Promise<string | null> {
    return (await this.ctx.storage.get<string>(PASSPORT_CHANGE)) ?? null;
  }

  /** The sessions' check: closes the sockets of sessions no longer live, and waits for the next expiry. */
  async alarm(): Promise<void> {
    const sockets = this.ctx.getWebSockets();
    const sessionIds = [...new Set(sockets.map(sessionOf).filter((id): id is string => Boolean(id)))];
    if (sockets.length === 0) return;
    const live = await liveSessionsAmong(createDb(this.env.DB), sessionIds);
    const liveIds = new Set(live.map((session) => session.id));
    for (const socket of sockets) {
      const sessionId = sessionOf(socket);
      if (!sessionId || !liveIds.has(sessionId)) closeEnded(socket, "session expired");
    }
    const next = Math.min(...live.map((session) => session.expiresAt.getTime()));
    if (Number.isFinite(next)) await this.ctx.storage.setAlarm(next);
  }

  async webSocketMessage(): Promise<void> {
    // Tabs only listen; pings are answered by the auto-response above.
  }

  async webSocketClose(socket: WebSocket): Promise<void> {
    try {
      socket.close(1000, "closing");
    } catch {
      // Already closed from the other side.
    }
  }

  /** Makes sure the sessions are checked by `at` (a session's expiry; it may move on meanwhile). */
  private async checkBy(at: number) {
    const alarm = await this.ctx.storage.getAlarm();
    if (alarm === null || alarm > at) await this.ctx.storage.setAlarm(at);
  }
}

function closeEnded(socket: WebSocket, reason: string) {
  try {
    // 4001: an application code the client reads as "session ended".
    socket.close(4001, reason);
  } catch {
    // Already closing.
  }
}
