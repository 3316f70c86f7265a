import { z } from "zod";
import { requestToJoin } from "#app/services/memberships.server.ts";
import { safeRedirectPath } from "#app/utils/cookies.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const schema = z.object({ intent: z.literal("request-join"), organizationId: z.uuid() });

/** A person asks to join an organisation found in the directory; back to the list they asked from. */
export const requestJoinIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: "Error requesting membership",
  run: async ({ organizationId }, { context, viewer, fields }) => ({
    toast: await requestToJoin(context, viewer, organizationId),
    redirectTo: safeRedirectPath(fields.get("redirectTo"), "/dashboard"),
  }),
});
