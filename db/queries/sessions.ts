import { and, count, eq, gt, inArray, ne } from "drizzle-orm";
import { inListLimit, type Db } from "../client.ts";
import { sessions } from "../schema.ts";
import { batchPart } from "./batch-parts.ts";
import { keyset, toPage, type PageRequest } from "./paging.ts";

// A person's sessions (signed-in browsers), as Settings lists and ends them. The auth library
// creates, refreshes and reads them; a session's expiry is its one end (decision 058).

/** One live session as Settings shows it: no token, ever. */
export type SessionSummary = {
  id: string;
  userAgent: string | null;
  place: string | null;
  createdAt: Date;
  /** Last seen: when it began or was last refreshed. */
  updatedAt: Date;
};

const live = (userId: string, now: Date) => and(eq(sessions.userId, userId), gt(sessions.expiresAt, now));

/**
 * A page of the person's live sessions, most recently seen first, and how many there are: a part
 * of the page's batch (Settings reads it with two-factor's state).
 */
export function sessionsPagePart(db: Db, userId: string, page: PageRequest, now = new Date()) {
  const { where, orderBy, limit } = keyset(sessions.updatedAt, sessions.id, "desc", page);
  return batchPart(
    [
      db
        .select({
          id: sessions.id,
          userAgent: sessions.userAgent,
          place: sessions.place,
          createdAt: sessions.createdAt,
          updatedAt: sessions.updatedAt,
        })
        .from(sessions)
        .where(and(live(userId, now), where))
        .orderBy(...orderBy)
        .limit(limit),
      db.select({ total: count() }).from(sessions).where(live(userId, now)),
    ],
    ([rows, [total]]) => ({
      ...toPage<SessionSummary>(rows, page, (row) => ({ key: row.updatedAt.getTime(), id: row.id })),
      total: total?.total ?? 0,
    }),
  );
}

/** Ends one of the person's sessions; false when they have no such session (another's id included). */
export async function deleteSessionOf(db: Db, { userId, sessionId }: { userId: string; sessionId: string }) {
  const deleted = await db
    .delete(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
    .returning({ id: sessions.id });
  return deleted.length > 0;
}

/** Ends every session of the person but `keepSessionId`; answers how many ended. */
export async function deleteOtherSessions(
  db: Db,
  { userId, keepSessionId }: { userId: string; keepSessionId: string },
) {
  const deleted = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)))
    .returning({ id: sessions.id });
  return deleted.length;
}

/** Of these session ids, the live ones with their expiry (for the notification hub's check). */
export async function liveSessionsAmong(db: Db, sessionIds: string[], now = new Date()) {
  const found: { id: string; expiresAt: Date }[] = [];
  const size = inListLimit(1);
  for (let start = 0; start < sessionIds.length; start += size) {
    found.push(
      ...(await db
        .select({ id: sessions.id, expiresAt: sessions.expiresAt })
        .from(sessions)
        .where(and(inArray(sessions.id, sessionIds.slice(start, start + size)), gt(sessions.expiresAt, now)))),
    );
  }
  return found;
}
