import { addSelfAchievement } from "#app/services/achievements.server.ts";
import { achievementIntent } from "#app/utils/achievement-form.server.ts";
import { selfAchievementSchema } from "#app/utils/achievement-schemas.ts";
import type { Viewer } from "#app/utils/viewer.ts";

/** A person adds an achievement of their own to their passport. */
export const addSelfAchievementIntent = achievementIntent<Viewer, typeof selfAchievementSchema>({
  schema: selfAchievementSchema,
  failureTitle: "Error adding achievement",
  save: (achievement, { context, viewer }) => addSelfAchievement(context, viewer.id, achievement),
});
