import { redirect } from "@remix-run/cloudflare";
import { z } from "zod";
import { openCustomerPortal } from "#app/services/subscriptions.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const schema = z.object({ intent: z.literal("manage-subscription"), membershipId: z.uuid() });

/** Posted into a new tab, which goes on to the customer portal (Stripe's, or the simulated one). */
export const manageSubscriptionIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: "Error",
  async run({ membershipId }, { request, context, viewer }) {
    const origin = context.env.APP_URL ?? new URL(request.url).origin;
    return redirect((await openCustomerPortal(context, viewer.id, membershipId, origin)).url);
  },
});
