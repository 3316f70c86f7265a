import { renewAchievement } from "#app/services/renewals.server.ts";
import { renewAchievementSchema, todayIn } from "#app/utils/achievement-schemas.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

/**
 * 'Renew' (decision 071): an admin of the entry's organisation (derived from the entry's row by
 * the service) gives it again with a new 'Valid until', dated today where the admin is.
 */
export const renewIntent = defineIntent<Viewer, typeof renewAchievementSchema>({
  schema: renewAchievementSchema,
  failureTitle: "Error creating achievement",
  formId: (fields) => `renew-${String(fields.get("achievementId") ?? "")}`,
  run: async ({ achievementId, validUntil, timeZone, submissionKey }, { request, context, viewer }) => ({
    toast: await renewAchievement(
      context,
      viewer.id,
      { achievementId, validUntil, date: todayIn(timeZone), submissionKey },
      context.env.APP_URL ?? new URL(request.url).origin,
    ),
  }),
});
