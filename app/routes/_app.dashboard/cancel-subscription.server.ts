import { z } from "zod";
import { cancelMemberSubscription } from "#app/services/subscriptions.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const schema = z.object({ intent: z.literal("cancel-subscription"), membershipId: z.uuid() });

export const cancelSubscriptionIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: "Error",
  run: async ({ membershipId }, { context, viewer }) => ({
    toast: await cancelMemberSubscription(context, viewer.id, membershipId),
  }),
});
