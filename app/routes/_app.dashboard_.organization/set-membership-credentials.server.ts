import { z } from "zod";
import { changeMembershipCredentials } from "#app/services/membership-entries.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const schema = z.object({
  intent: z.literal("set-membership-credentials"),
  // A checkbox: "on" when ticked, absent when not.
  membershipCredentials: z.literal("on").optional(),
});

/** The active organisation's admin turns membership credentials on or off (decision 070). */
export const setMembershipCredentialsIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: "Could not save membership credentials",
  async run({ membershipCredentials }, { context, viewer }) {
    return {
      toast: await changeMembershipCredentials(
        context,
        { id: viewer.id, organizationId: viewer.activeOrganization?.id ?? null },
        membershipCredentials === "on",
      ),
    };
  },
});
