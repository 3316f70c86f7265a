import { DurableObject } from "cloudflare:workers";

/**
 * One instance per user (idFromName(userId)): holds that user's open tabs as hibernatable
 * WebSockets and pushes each new notification to all of them. D1 stays the source of truth;
 * this object keeps no state of its own and no timers, so idle sockets cost nothing.
 */
export class NotificationHub extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // Answered by the runtime without waking the object.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  async fetch(request: Request): Promise<Response> {
    const userId = request.headers.get("X-User-Id");
    if (request.headers.get("Upgrade") !== "websocket" || !userId) {
      return new Response("Expected a WebSocket upgrade", { status: 426 });
    }
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server);
    server.serializeAttachment({ userId });
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
   * Closes every open tab's socket: the account signed out, changed its password, or is gone.
   * A tab that is still signed in reconnects (and is checked again); one that is not, cannot.
   */
  async closeAll(reason: string): Promise<number> {
    const sockets = this.ctx.getWebSockets();
    for (const socket of sockets) {
      try {
        // 4001: an application code the client reads as "session ended".
        socket.close(4001, reason);
      } catch {
        // Already closing.
      }
    }
    return sockets.length;
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
}
