import { redirect } from "@remix-run/cloudflare";
import { z } from "zod";
import { subscribeMember } from "#app/services/subscriptions.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const schema = z.object({ intent: z.literal("subscribe"), membershipId: z.uuid() });

/** Posted into a new tab, which goes on to checkout (Stripe's, or the simulated one). */
export const subscribeIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: "Error",
  async run({ membershipId }, { request, context, viewer }) {
    const origin = context.env.APP_URL ?? new URL(request.url).origin;
    return redirect((await subscribeMember(context, viewer.id, membershipId, origin)).url);
  },
});
