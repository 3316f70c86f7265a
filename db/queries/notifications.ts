import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../client.ts";
import { notifications, type NotificationType } from "../schema.ts";

export const NOTIFICATIONS_FETCHED = 20;

export type NewNotification = { userId: string; title: string; message: string; type: NotificationType };

export async function insertNotifications(db: Db, rows: NewNotification[]) {
  if (rows.length === 0) return [];
  // Six columns a row: stay under D1's 100 bound parameters per statement.
  const inserted = [];
  for (let start = 0; start < rows.length; start += 15) {
    inserted.push(...(await db.insert(notifications).values(rows.slice(start, start + 15)).returning()));
  }
  return inserted;
}

export function listNotifications(db: Db, userId: string) {
  return db
    .select()
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt))
    .limit(NOTIFICATIONS_FETCHED);
}

export async function markAllRead(db: Db, userId: string) {
  await db.update(notifications).set({ read: true }).where(and(eq(notifications.userId, userId), eq(notifications.read, false)));
}
