import { savePreferences } from "#app/services/profiles.server.ts";
import { preferencesSchema } from "#app/utils/form-schemas.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

export const updatePreferencesIntent = defineIntent<Viewer, typeof preferencesSchema>({
  schema: preferencesSchema,
  failureTitle: "Error",
  async run(value, { context, viewer }) {
    await savePreferences(context, viewer.id, {
      searchIndexing: value.searchIndexing === "on",
      recognitionEmails: value.recognitionEmails === "on",
    });
    return { toast: { title: "Preferences saved" } };
  },
});
