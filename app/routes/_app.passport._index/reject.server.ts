import { z } from "zod";
import { answer } from "#app/services/achievements.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const schema = z.object({
  intent: z.literal("reject"),
  achievementId: z.uuid(),
  // The recipient's consent to carry the achievement's picture or video in its credential.
  includeMedia: z.literal("on").optional(),
});

/** Only the recipient answers an achievement offered to them; answering twice changes nothing. */
export const rejectIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: "Error rejecting achievement",
  run: async ({ achievementId, includeMedia }, { context, viewer }) => ({
    toast: await answer(context, viewer.id, achievementId, "rejected", { includeMedia: includeMedia === "on" }),
  }),
});
