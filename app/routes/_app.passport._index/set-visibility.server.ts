import { z } from "zod";
import { changeVisibility } from "#app/services/achievements.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const schema = z.object({
  intent: z.literal("set-visibility"),
  achievementId: z.uuid(),
  visible: z.enum(["true", "false"]),
});

/** Shows or hides one of the person's own achievements on their public passport. */
export const setVisibilityIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: "Error",
  run: async ({ achievementId, visible }, { context, viewer }) => ({
    toast: await changeVisibility(context, viewer.id, achievementId, visible === "true"),
  }),
});
