import { z } from "zod";
import { revokeGivenCredential } from "#app/services/credentials/revoke.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const revokeSchema = z.object({ intent: z.literal("revoke"), credentialId: z.uuid() });

/** An admin of the credential's issuer revokes it; the organisation comes from the credential's row. */
export const revokeIntent = defineIntent<Viewer, typeof revokeSchema>({
  schema: revokeSchema,
  failureTitle: "Error",
  run: async ({ credentialId }, { context, viewer }) => ({
    toast: await revokeGivenCredential(context, viewer.id, credentialId),
  }),
});
