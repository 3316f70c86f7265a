import { z } from "zod";
import { rejectOrRemove } from "#app/services/memberships.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

/** Reject (a join request) or remove (a member, never the last admin): both end the membership the form names. */
export function rejectOrRemoveIntent(kind: "reject" | "remove") {
  const schema = z.object({ intent: z.literal(kind), membershipId: z.uuid() });
  return defineIntent<Viewer, typeof schema>({
    schema,
    failureTitle: "Error",
    run: async ({ membershipId }, { context, viewer }) => ({
      toast: await rejectOrRemove(context, viewer.id, membershipId, kind),
    }),
  });
}
