import type { ServiceContext } from "./context.server.ts";
import { insertNotifications, markRead, type NewNotification } from "#db/queries/notifications.ts";

type StoredNotification = Awaited<ReturnType<typeof insertNotifications>>[number];
import { pushToHubs } from "#app/utils/person-hub.server.ts";
import { errorSummary, log } from "#app/utils/log.server.ts";

/**
 * Creates notifications for a change already written: the D1 rows first (the source of truth),
 * then each recipient's hub pushes its row to their open tabs. Like a mail, they are the change's
 * side effect: a failure to write them is logged and never fails the action whose change stands
 * (its answer would otherwise say nothing was saved), nor does a failed push after the response.
 */
export async function notify(context: ServiceContext, rows: NewNotification[]) {
  try {
    const inserted = await insertNotifications(context.db, rows);
    announce(context, inserted);
    return inserted;
  } catch (error) {
    log("error", "notifications not written", { requestId: context.requestId, error: errorSummary(error) });
    return [];
  }
}

/** Pushes notification rows already written (by the batch of the change they announce). */
export function announce(context: ServiceContext, inserted: StoredNotification[]) {
  pushToHubs(
    context,
    inserted.map((row) => ({ userId: row.userId, message: { type: "notification", notification: row } })),
  );
}

/** Marks notifications read and tells the user's other tabs, so every badge agrees. */
export async function markNotificationsRead(context: ServiceContext, userId: string, ids: string[] | "all") {
  const changed = await markRead(context.db, userId, ids);
  if (changed.length > 0) pushToHubs(context, [{ userId, message: { type: "read", ids: changed } }]);
  return changed;
}
