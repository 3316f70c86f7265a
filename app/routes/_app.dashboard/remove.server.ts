import { z } from "zod";
import { rejectOrRemove } from "#app/services/memberships.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const schema = z.object({ intent: z.literal("remove"), membershipId: z.uuid() });

/** An admin removes a member (never the last admin). */
export const removeIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: "Error",
  run: async ({ membershipId }, { context, viewer }) => ({
    toast: await rejectOrRemove(context, viewer.id, membershipId, "remove"),
  }),
});
