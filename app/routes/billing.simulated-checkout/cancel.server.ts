import { requireSubscribableMember } from "#app/services/subscriptions.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";
import { z } from "zod";
import { target } from "./target.ts";

const schema = target.extend({ intent: z.literal("cancel") });

export const cancelIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: "Error",
  async run({ organizationId, memberUserId }, { context, viewer }) {
    await requireSubscribableMember(context, viewer.id, { organizationId, memberUserId });
    return { toast: { title: "Checkout cancelled", description: "No payment was taken." } };
  },
});
