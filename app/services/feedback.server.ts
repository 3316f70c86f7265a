import { insertFeedback } from "#db/queries/feedback.ts";
import type { ServiceContext } from "./context.server.ts";

/** Beta feedback from Settings; a resubmitted form (same key) is stored once. */
export async function sendFeedback(
  context: ServiceContext,
  userId: string,
  feedback: { message: string; rating: number | null; submissionKey: string | null },
) {
  await insertFeedback(context.db, userId, feedback);
}
