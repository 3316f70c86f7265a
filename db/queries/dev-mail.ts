import { desc, eq, sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import { devMail } from "../schema.ts";

export async function insertDevMail(db: Db, message: { to: string; subject: string; text: string; html: string }) {
  await db.insert(devMail).values({ ...message, to: message.to.toLowerCase() });
}

/** Newest first, at most `limit`; for one recipient when given. */
export function listDevMail(db: Db, to?: string | null, limit = 50) {
  return db
    .select({
      to: devMail.to,
      subject: devMail.subject,
      text: devMail.text,
      html: devMail.html,
      createdAt: devMail.createdAt,
    })
    .from(devMail)
    .where(to ? eq(devMail.to, to.toLowerCase()) : undefined)
    .orderBy(desc(devMail.createdAt), sql`rowid desc`)
    .limit(limit);
}
