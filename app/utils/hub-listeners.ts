import type { HubMessage } from "./hub-message.ts";

// What the page's one notification socket (the bell's, use-notification-socket.ts) hears, for the
// other parts of the page that wait for news: they listen here (use-hub-messages.ts) rather than
// open a socket of their own. Kept apart from the hook so the first load carries only this.

export const hubListeners = new Set<(message: HubMessage) => void>();
const openChanged = new Set<() => void>();
let openSockets = 0;

/** Called by the socket as it opens (1) and closes (-1). */
export function countOpen(delta: 1 | -1) {
  openSockets += delta;
  for (const listener of openChanged) listener();
}

export const isHubOpen = () => openSockets > 0;

export function subscribeToOpen(listener: () => void) {
  openChanged.add(listener);
  return () => void openChanged.delete(listener);
}
