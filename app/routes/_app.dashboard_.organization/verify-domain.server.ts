import { z } from "zod";
import { verifyDomain } from "#app/services/organization-domains.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const schema = z.object({ intent: z.literal("verify-domain"), domainId: z.uuid() });

/** Looks the domain's TXT record up now (DNS over HTTPS). */
export const verifyDomainIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: "Domain not verified",
  formId: (fields) => `verify-domain-${String(fields.get("domainId") ?? "")}`,
  async run({ domainId }, { context, viewer }) {
    const { domain } = await verifyDomain(context, viewer.id, viewer.activeOrganization?.id ?? null, domainId);
    return {
      toast: {
        title: "Domain verified",
        description: `New credentials of your organisation name ${domain}.`,
      },
    };
  },
});
