import { saveBio } from "#app/services/profiles.server.ts";
import { bioSchema } from "#app/utils/form-schemas.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

export const updateBioIntent = defineIntent<Viewer, typeof bioSchema>({
  schema: bioSchema,
  failureTitle: "Error updating bio",
  formId: "bio",
  async run({ bio }, { context, viewer }) {
    await saveBio(context, viewer.id, bio);
    return { toast: { title: "Bio updated" } };
  },
});
