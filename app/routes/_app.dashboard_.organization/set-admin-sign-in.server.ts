import { z } from "zod";
import { setAdminSignIn } from "#app/services/organizations.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const schema = z.object({
  intent: z.literal("set-admin-sign-in"),
  // A checkbox: "on" when ticked, absent when not.
  requireTwoFactor: z.literal("on").optional(),
});

/** The active organisation's admin requires (or stops requiring) a strong factor of its admins. */
export const setAdminSignInIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: "Could not save admin sign-in",
  async run({ requireTwoFactor }, { context, viewer }) {
    return {
      toast: await setAdminSignIn(context, viewer.id, viewer.activeOrganization?.id ?? null, requireTwoFactor === "on"),
    };
  },
});
