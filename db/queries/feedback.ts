import type { Db } from "../client.ts";
import { betaFeedback } from "../schema.ts";

/** Stores feedback once per form render: false when this submission key was already saved (decision 012). */
export async function insertFeedback(
  db: Db,
  userId: string,
  feedback: { message: string; rating: number | null; submissionKey?: string | null },
) {
  const rows = await db
    .insert(betaFeedback)
    .values({ userId, ...feedback })
    .onConflictDoNothing()
    .returning({ id: betaFeedback.id });
  return rows.length > 0;
}
