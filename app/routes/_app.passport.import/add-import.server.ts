import { z } from "zod";
import { addImport, IMPORT_REFUSED } from "#app/services/imports/imported-credentials.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const schema = z.object({ intent: z.literal("add-import"), nonce: z.uuid() });

/** Adds the checked import to the passport (verified again on the server); a second submit adds nothing. */
export const addImportIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: IMPORT_REFUSED,
  run: async ({ nonce }, { context, viewer }) => ({
    toast: await addImport(context, viewer, nonce),
    redirectTo: "/passport",
  }),
});
