import { z } from "zod";
import { resetInviteCode } from "#app/services/organizations.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const schema = z.object({ intent: z.literal("reset-invite") });

/** The organisation is the caller's active one, and only its admin may reset its link. */
export const resetInviteIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: "Error",
  async run(_, { context, viewer }) {
    await resetInviteCode(context, viewer.id, viewer.activeOrganization?.id ?? null);
    return { toast: { title: "Invite link reset", description: "The old link no longer works." } };
  },
});
