import { and, count, eq, inArray, sql, type SQL } from "drizzle-orm";
import { inListLimit, insertWhen, rowsPerInsert, type Db } from "../client.ts";
import { notifications, type NotificationType } from "../schema.ts";
import { batchPart, runPart } from "./batch-parts.ts";
import { keyset, PAGE_SIZES, toPage, type PageRequest } from "./paging.ts";

// Each row binds id, user, title, message, type, read and created_at.
const NOTIFICATIONS_PER_INSERT = rowsPerInsert(7);
// Marking read binds the new value, the user and the unread flag besides the ids.
const MARKED_READ_AT_ONCE = inListLimit(3);

export type NewNotification = { userId: string; title: string; message: string; type: NotificationType };

export async function insertNotifications(db: Db, rows: NewNotification[]) {
  if (rows.length === 0) return [];
  const inserted = [];
  for (let start = 0; start < rows.length; start += NOTIFICATIONS_PER_INSERT) {
    inserted.push(
      ...(await db
        .insert(notifications)
        .values(rows.slice(start, start + NOTIFICATIONS_PER_INSERT))
        .returning()),
    );
  }
  return inserted;
}

/**
 * One notification as a statement for the batch that causes it, so the row costs no round trip
 * of its own. With `when`, it is written only if that holds when the batch runs: placed before
 * the write it announces, inside the same transaction, it says whether that write will happen,
 * so two racing requests cannot both announce one change.
 */
export function notificationInsert(db: Db, row: NewNotification, when?: SQL) {
  const values = { id: crypto.randomUUID(), read: false, createdAt: new Date(), ...row };
  if (!when) return db.insert(notifications).values(values).returning();
  return insertWhen(db, notifications, values, when).returning();
}

/**
 * One page of a user's notifications (keyset, newest first, the id breaking ties), how many
 * there are and how many are unread, as a part of a batch. The bell shows the first page, read in
 * the signed-in guard's batch (docs/decisions/036); the history at /notifications pages through
 * the rest. `userId` may be an expression (the session's user).
 */
export function notificationsPart(
  db: Db,
  userId: string | SQL<string>,
  page: PageRequest = { size: PAGE_SIZES.notifications },
) {
  const mine = eq(notifications.userId, userId);
  const { where, orderBy, limit } = keyset(notifications.createdAt, notifications.id, "desc", page);
  const cursorOf = (row: { createdAt: Date; id: string }) => ({ key: row.createdAt.getTime(), id: row.id });
  return batchPart(
    [
      db
        .select({
          id: notifications.id,
          title: notifications.title,
          message: notifications.message,
          type: notifications.type,
          read: notifications.read,
          createdAt: notifications.createdAt,
        })
        .from(notifications)
        .where(and(mine, where))
        .orderBy(...orderBy)
        .limit(limit),
      db
        .select({ total: count(), unread: count(sql`case when ${notifications.read} = 0 then 1 end`) })
        .from(notifications)
        .where(mine),
    ] as const,
    ([rows, [totals]]) => ({
      ...toPage(rows, page, cursorOf),
      total: totals?.total ?? 0,
      unread: totals?.unread ?? 0,
    }),
  );
}

export type NotificationsPage = ReturnType<ReturnType<typeof notificationsPart>["read"]>;

/** One page of a user's notifications with their counts, in one round trip. */
export function loadNotifications(db: Db, userId: string, page?: PageRequest) {
  return runPart(db, notificationsPart(db, userId, page));
}

/** Marks read the given ones (or all) of this user's notifications; never another user's. */
export async function markRead(db: Db, userId: string, ids: string[] | "all") {
  const mine = and(eq(notifications.userId, userId), eq(notifications.read, false));
  const rows = await db
    .update(notifications)
    .set({ read: true })
    .where(ids === "all" ? mine : and(mine, inArray(notifications.id, ids.slice(0, MARKED_READ_AT_ONCE))))
    .returning({ id: notifications.id });
  return rows.map((row) => row.id);
}
