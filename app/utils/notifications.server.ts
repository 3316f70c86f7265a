import type { AppLoadContext } from "@remix-run/cloudflare";
import { insertNotifications, markRead, type NewNotification } from "#db/queries/notifications.ts";

/** What a user's hub sends to their open tabs. */
export type HubMessage =
  | { type: "notification"; notification: Awaited<ReturnType<typeof insertNotifications>>[number] }
  | { type: "read"; ids: string[] };

function push(context: AppLoadContext, userId: string, message: HubMessage) {
  const hubs = context.cloudflare.env.NOTIFICATIONS;
  return hubs.get(hubs.idFromName(userId)).broadcast(message);
}

function logPushFailures(results: PromiseSettledResult<unknown>[]) {
  for (const result of results) {
    if (result.status === "rejected") {
      console.error(
        JSON.stringify({ level: "error", message: "notification push failed", error: String(result.reason) }),
      );
    }
  }
}

/**
 * Creates notifications: the D1 rows first (the source of truth), then each recipient's hub
 * pushes its row to their open tabs. The push happens after the response and a failure there
 * never loses the row or fails the action that caused it.
 */
export async function notify(context: AppLoadContext, rows: NewNotification[]) {
  const inserted = await insertNotifications(context.db, rows);
  context.cloudflare.ctx.waitUntil(
    Promise.allSettled(
      inserted.map((row) => push(context, row.userId, { type: "notification", notification: row })),
    ).then(logPushFailures),
  );
  return inserted;
}

/** Marks notifications read and tells the user's other tabs, so every badge agrees. */
export async function markNotificationsRead(context: AppLoadContext, userId: string, ids: string[] | "all") {
  const changed = await markRead(context.db, userId, ids);
  if (changed.length > 0) {
    context.cloudflare.ctx.waitUntil(
      Promise.allSettled([push(context, userId, { type: "read", ids: changed })]).then(logPushFailures),
    );
  }
  return changed;
}

/**
 * Closes the user's open notification sockets (sign-out, password change or reset, archive,
 * purge), so a tab whose session ended stops receiving that person's notifications. A failure
 * is logged, never raised: the action it follows has already happened.
 */
export async function closeNotificationSockets(context: Pick<AppLoadContext, "cloudflare">, userId: string) {
  const hubs = context.cloudflare.env.NOTIFICATIONS;
  const results = await Promise.allSettled([hubs.get(hubs.idFromName(userId)).closeAll("session ended")]);
  logPushFailures(results);
}
