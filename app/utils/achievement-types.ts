import type { AchievementType } from "#db/enums.ts";

/** How each achievement type is named on every screen (the spec's award, training and milestone). */
export const ACHIEVEMENT_TYPE_LABELS: Record<AchievementType, string> = {
  award: "Award",
  training: "Training",
  milestone: "Milestone",
};
