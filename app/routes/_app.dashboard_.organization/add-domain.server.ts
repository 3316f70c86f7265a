import { z } from "zod";
import { addDomain } from "#app/services/organization-domains.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const schema = z.object({
  intent: z.literal("add-domain"),
  domain: z
    .string({ error: "Enter a domain name, such as acme.example." })
    .trim()
    .min(1, "Enter a domain name, such as acme.example.")
    .max(300, "Enter a domain name, such as acme.example."),
});

/** The active organisation's admin claims a domain; the record to publish is shown next. */
export const addDomainIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: "Could not add the domain",
  async run({ domain: typed }, { context, viewer }) {
    const { domain, added } = await addDomain(context, viewer.id, viewer.activeOrganization?.id ?? null, typed);
    return {
      toast: added
        ? { title: "Domain added", description: `Publish the TXT record below, then verify ${domain}.` }
        : { title: "Domain already added", description: `${domain} is on the list.` },
    };
  },
});
