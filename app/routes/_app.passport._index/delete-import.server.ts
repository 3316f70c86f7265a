import { z } from "zod";
import { deleteImport } from "#app/services/imports/imported-credentials.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const schema = z.object({ intent: z.literal("delete-import"), achievementId: z.uuid() });

/** Deletes one of the person's imported credentials and its kept original (decision 069). */
export const deleteImportIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: "Error deleting credential",
  formId: (fields) => `delete-import-${String(fields.get("achievementId") ?? "")}`,
  run: async ({ achievementId }, { context, viewer }) => ({
    toast: await deleteImport(context, viewer.id, achievementId),
  }),
});
