import { z } from "zod";
import { leave } from "#app/services/memberships.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const schema = z.object({ intent: z.literal("leave"), organizationId: z.uuid() });

/** A person leaves an organisation (their own membership only). */
export const leaveIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: "Error",
  run: async ({ organizationId }, { context, viewer }) => ({ toast: await leave(context, viewer.id, organizationId) }),
});
