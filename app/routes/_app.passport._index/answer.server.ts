import { z } from "zod";
import { answer } from "#app/services/achievement-answers.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

/**
 * Accept or reject: only the recipient answers an achievement offered to them, and answering
 * twice changes nothing. Accepting may carry the achievement's media into its credential.
 */
export function answerIntent<Intent extends "accept" | "reject">(
  intent: Intent,
  status: "accepted" | "rejected",
  failureTitle: string,
) {
  const schema = z.object({
    intent: z.literal(intent),
    achievementId: z.uuid(),
    // The recipient's consent to carry the achievement's picture or video in its credential.
    includeMedia: z.literal("on").optional(),
  });
  return defineIntent<Viewer, typeof schema>({
    schema,
    failureTitle,
    run: async ({ achievementId, includeMedia }, { context, viewer }) => ({
      toast: await answer(context, viewer.id, achievementId, status, { includeMedia: includeMedia === "on" }),
    }),
  });
}
