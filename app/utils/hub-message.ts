import type { insertNotifications } from "#db/queries/notifications.ts";

/** What a user's notification hub sends to their open tabs (the server pushes it, the bell reads it). */
export type HubMessage =
  | { type: "notification"; notification: Awaited<ReturnType<typeof insertNotifications>>[number] }
  | { type: "read"; ids: string[] };

/** Which of a user's notification sockets to close: every one, those of some sessions, or all but one session's. */
export type SocketScope = { all: true } | { sessions: string[] } | { except: string };
