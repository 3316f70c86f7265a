import { useEffect, useRef, useSyncExternalStore } from "react";
import { hubListeners, isHubOpen, subscribeToOpen } from "./hub-listeners.ts";
import type { HubMessage } from "./hub-message.ts";

/**
 * Hears each message of the page's notification socket while `listening`. Returns whether that
 * socket is open now: while it is not, the caller must find out some other way (and ask again
 * once it opens, for what it missed).
 */
export function useHubMessages(onMessage: (message: HubMessage) => void, listening: boolean) {
  const handler = useRef(onMessage);
  handler.current = onMessage;
  useEffect(() => {
    if (!listening) return;
    const listener = (message: HubMessage) => handler.current(message);
    hubListeners.add(listener);
    return () => void hubListeners.delete(listener);
  }, [listening]);
  return useSyncExternalStore(subscribeToOpen, isHubOpen, () => false);
}
