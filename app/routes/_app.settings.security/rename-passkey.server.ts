import { z } from "zod";
import { renamePasskey } from "#app/services/passkeys.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import { passkeyNameField } from "#app/utils/passkeys.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const schema = z.object({
  intent: z.literal("rename-passkey"),
  passkeyId: z.string().min(1).max(64),
  name: passkeyNameField.pipe(z.string().min(1, "Name is required")),
});

/** 'Rename' one of the person's passkeys. Anyone else's passkey, or one removed since: not found (404). */
export const renamePasskeyIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: "Error renaming passkey",
  formId: (fields) => `rename-passkey-${String(fields.get("passkeyId"))}`,
  async run({ passkeyId, name }, { context, viewer }) {
    await renamePasskey(context, { userId: viewer.id, id: passkeyId, name });
    return {
      toast: { title: "Passkey renamed", description: `It is now called "${name}".` },
      redirectTo: "/settings/security#passkeys",
    };
  },
});
