import { useEffect, useRef, useState } from "react";
import { countOpen, hubListeners } from "./hub-listeners.ts";
import type { HubMessage } from "#app/utils/hub-message.ts";

const PING_EVERY_MS = 30_000;
const MAX_BACKOFF_MS = 30_000;
/** The close code the hub uses when the user's session ended (workers/person-hub.ts). */
const SESSION_ENDED = 4001;
const SESSION_ENDED_WAIT_MS = 5_000;
const SIGN_OUT_PATH = "/auth/signout";

/**
 * Keeps a WebSocket to this user's notification hub open while the page lives. After a drop it
 * reconnects with exponential backoff, and calls `onReconnect` so the page reloads what it
 * missed meanwhile. Returns whether the socket is open now.
 */
export function useNotificationSocket(onMessage: (message: HubMessage) => void, onReconnect: () => void) {
  const handlers = useRef({ onMessage, onReconnect });
  handlers.current = { onMessage, onReconnect };
  const [connected, setConnected] = useState(false);

  useEffect(() => {
    let socket: WebSocket | undefined;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let pingTimer: ReturnType<typeof setInterval> | undefined;
    let attempts = 0;
    let connectedBefore = false;
    let stopped = false;
    let open = false;
    const setOpen = (now: boolean) => {
      if (now !== open) countOpen(now ? 1 : -1);
      open = now;
      setConnected(now);
    };

    const connect = () => {
      const url = new URL("/api/notifications/socket", window.location.href);
      url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
      socket = new WebSocket(url);
      socket.addEventListener("open", () => {
        if (connectedBefore) handlers.current.onReconnect();
        connectedBefore = true;
        attempts = 0;
        setOpen(true);
        // Answered by the hub without waking it; keeps proxies from closing an idle socket.
        pingTimer = setInterval(() => socket?.send("ping"), PING_EVERY_MS);
      });
      socket.addEventListener("message", (event) => {
        if (event.data === "pong") return;
        let message: HubMessage;
        try {
          message = JSON.parse(String(event.data)) as HubMessage;
        } catch {
          return; // Not one of ours: ignore it.
        }
        handlers.current.onMessage(message);
        for (const listener of hubListeners) listener(message);
      });
      socket.addEventListener("close", (event) => {
        clearInterval(pingTimer);
        setOpen(false);
        if (stopped) return;
        // SESSION_ENDED: the server closed it (sign-out, password change, archive). The page that
        // caused it is moving on; a tab still signed in (with its new cookie) reconnects after that.
        const backoff = event.code === SESSION_ENDED ? SESSION_ENDED_WAIT_MS : 1000 * 2 ** attempts++;
        const delay = Math.min(MAX_BACKOFF_MS, backoff) + Math.random() * 500;
        retryTimer = setTimeout(connect, delay);
      });
    };

    const stop = () => {
      stopped = true;
      if (open) countOpen(-1);
      open = false;
      clearTimeout(retryTimer);
      clearInterval(pingTimer);
      socket?.close();
    };
    // Signing out ends the session the socket would reconnect with: a retry due meanwhile would
    // only be refused (and logged by the browser as a failed connection).
    const stopOnSignOut = (event: SubmitEvent) => {
      if ((event.target as HTMLFormElement).action?.endsWith(SIGN_OUT_PATH)) stop();
    };
    document.addEventListener("submit", stopOnSignOut, true);

    connect();
    return () => {
      document.removeEventListener("submit", stopOnSignOut, true);
      stop();
    };
  }, []);
  return connected;
}
