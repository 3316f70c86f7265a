import { and, count, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import { notifications, type NotificationType } from "../schema.ts";
import { keyset, PAGE_SIZES, toPage, type PageRequest } from "./paging.ts";

export type NewNotification = { userId: string; title: string; message: string; type: NotificationType };

export async function insertNotifications(db: Db, rows: NewNotification[]) {
  if (rows.length === 0) return [];
  // Six columns a row: stay under D1's 100 bound parameters per statement.
  const inserted = [];
  for (let start = 0; start < rows.length; start += 15) {
    inserted.push(
      ...(await db
        .insert(notifications)
        .values(rows.slice(start, start + 15))
        .returning()),
    );
  }
  return inserted;
}

/**
 * One page of a user's notifications (keyset, newest first, the id breaking ties), how many
 * there are and how many are unread, in one round trip. The bell shows the first page; the
 * history at /notifications pages through the rest.
 */
export async function loadNotifications(
  db: Db,
  userId: string,
  page: PageRequest = { size: PAGE_SIZES.notifications },
) {
  const mine = eq(notifications.userId, userId);
  const { where, orderBy, limit } = keyset(notifications.createdAt, notifications.id, "desc", page);
  const [rows, [totals]] = await db.batch([
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
  ]);
  const cursorOf = (row: { createdAt: Date; id: string }) => ({ key: row.createdAt.getTime(), id: row.id });
  return { ...toPage(rows, page, cursorOf), total: totals?.total ?? 0, unread: totals?.unread ?? 0 };
}

/** Marks read the given ones (or all) of this user's notifications; never another user's. */
export async function markRead(db: Db, userId: string, ids: string[] | "all") {
  const mine = and(eq(notifications.userId, userId), eq(notifications.read, false));
  const rows = await db
    .update(notifications)
    .set({ read: true })
    .where(ids === "all" ? mine : and(mine, inArray(notifications.id, ids.slice(0, 90))))
    .returning({ id: notifications.id });
  return rows.map((row) => row.id);
}
