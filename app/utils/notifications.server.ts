import type { AppLoadContext } from "@remix-run/cloudflare";
import { insertNotifications, type NewNotification } from "#db/queries/notifications.ts";

/**
 * Creates notifications: the D1 rows first (the source of truth), then each recipient's hub
 * pushes its row to their open tabs. The push happens after the response and a failure there
 * never loses the row or fails the action that caused it.
 */
export async function notify(context: AppLoadContext, rows: NewNotification[]) {
  const inserted = await insertNotifications(context.db, rows);
  const hubs = context.cloudflare.env.NOTIFICATIONS;
  context.cloudflare.ctx.waitUntil(
    Promise.allSettled(
      inserted.map((row) => hubs.get(hubs.idFromName(row.userId)).broadcast({ type: "notification", notification: row })),
    ).then((results) => {
      for (const result of results) {
        if (result.status === "rejected") {
          console.error(JSON.stringify({ level: "error", message: "notification push failed", error: String(result.reason) }));
        }
      }
    }),
  );
  return inserted;
}
