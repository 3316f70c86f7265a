import { addSelfAchievement } from "#app/services/achievements.server.ts";
import { countedFiles } from "#app/services/storage.server.ts";
import { achievementIntent } from "#app/utils/achievement-form.server.ts";
import { selfAchievementSchema } from "#app/utils/achievement-schemas.ts";
import type { Viewer } from "#app/utils/viewer.ts";

/** A person adds an achievement of their own to their passport. */
export const addSelfAchievementIntent = achievementIntent<Viewer, typeof selfAchievementSchema>({
  schema: selfAchievementSchema,
  failureTitle: "Error adding achievement",
  // The files kept for its media (the rest are gone by now) count towards the person's storage.
  save: (achievement, { context, viewer, upload }) =>
    addSelfAchievement(context, viewer.id, achievement, countedFiles(upload?.files.values() ?? [])),
});
