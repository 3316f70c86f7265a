import { z } from "zod";
import { approve } from "#app/services/memberships.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const schema = z.object({ intent: z.literal("approve"), membershipId: z.uuid() });

/** An admin approves a join request; the organisation is the request's own. */
export const approveIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: "Error",
  run: async ({ membershipId }, { context, viewer }) => ({ toast: await approve(context, viewer.id, membershipId) }),
});
