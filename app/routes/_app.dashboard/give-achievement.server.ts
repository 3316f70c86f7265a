import { giveAchievement } from "#app/services/achievements.server.ts";
import { achievementIntent } from "#app/utils/achievement-form.server.ts";
import { giveAchievementSchema } from "#app/utils/achievement-schemas.ts";
import { forbidden } from "#app/utils/denial.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

/** An admin recognises a member of their active organisation (never an organisation the form names). */
export const giveAchievementIntent = achievementIntent<Viewer, typeof giveAchievementSchema>({
  schema: giveAchievementSchema,
  failureTitle: "Error creating achievement",
  guard({ context, viewer }) {
    if (!viewer.activeOrganization) throw forbidden(context, "no active organisation", { userId: viewer.id });
  },
  save(achievement, { request, context, viewer }) {
    const organization = viewer.activeOrganization!;
    return giveAchievement(
      context,
      { id: viewer.id, organizationId: organization.id, organizationName: organization.name },
      achievement,
      context.env.APP_URL ?? new URL(request.url).origin,
    );
  },
});
