import { createOrganization, refuseUnlessOrganizationAccount } from "#app/services/organizations.server.ts";
import { createOrganizationSchema } from "#app/utils/form-schemas.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

export const createOrganizationIntent = defineIntent<Viewer, typeof createOrganizationSchema>({
  schema: createOrganizationSchema,
  failureTitle: "Error creating organisation",
  guard: ({ context, viewer }) => refuseUnlessOrganizationAccount(context, viewer),
  async run(value, { context, viewer }) {
    await createOrganization(context, viewer, value);
    return { toast: { title: "Organisation created", description: "You are now the admin of this organisation" } };
  },
});
