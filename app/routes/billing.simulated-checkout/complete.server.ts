import { handleStripeEvent, localEvent, simulatedCheckoutSession } from "#app/services/stripe-events.server.ts";
import { requireSubscribableMember } from "#app/services/subscriptions.server.ts";
import { MEMBER_PRICE_LABEL } from "#app/utils/constants.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";
import { z } from "zod";
import { target } from "./target.ts";

const schema = target.extend({ intent: z.literal("complete") });

/** A checkout.session.completed event, handed to the same code as a verified webhook. */
export const completeIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: "Error",
  async run({ organizationId, memberUserId }, { context, viewer }) {
    const input = { organizationId, memberUserId };
    const membership = await requireSubscribableMember(context, viewer.id, input);
    const session = simulatedCheckoutSession({ ...input, adminUserId: viewer.id });
    await handleStripeEvent(context, localEvent("checkout.session.completed", session));
    return {
      toast: {
        title: "Subscription active",
        description: `${membership.memberName} is subscribed (${MEMBER_PRICE_LABEL} per month).`,
      },
    };
  },
});
