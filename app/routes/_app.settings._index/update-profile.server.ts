import { saveProfile } from "#app/services/profiles.server.ts";
import { profileSchema } from "#app/utils/form-schemas.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

export const updateProfileIntent = defineIntent<Viewer, typeof profileSchema>({
  schema: profileSchema,
  failureTitle: "Error updating profile",
  async run(value, { context, viewer }) {
    await saveProfile(context, viewer.id, {
      fullName: value.fullName,
      bio: value.bio,
      isPublic: value.isPublic === "on",
    });
    return { toast: { title: "Profile updated" } };
  },
});
