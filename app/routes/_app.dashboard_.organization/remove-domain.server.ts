import { z } from "zod";
import { removeDomain } from "#app/services/organization-domains.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const schema = z.object({ intent: z.literal("remove-domain"), domainId: z.uuid() });

export const removeDomainIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: "Error",
  async run({ domainId }, { context, viewer }) {
    const removed = await removeDomain(context, viewer.id, viewer.activeOrganization?.id ?? null, domainId);
    return {
      toast: { title: "Domain removed", description: removed ? `${removed.domain} is no longer listed.` : undefined },
    };
  },
});
