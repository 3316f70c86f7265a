import { z } from "zod";
import { removePasskey } from "#app/services/passkeys.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";
import { checkPassword, ownerOf } from "./two-factor-checks.server.ts";

const schema = z.object({
  intent: z.literal("remove-passkey"),
  passkeyId: z.string().min(1).max(64),
  password: z.string().default(""),
});
const TITLE = "Error removing passkey";

/**
 * 'Remove' one of the person's passkeys, after the password: a session left open is not enough.
 * Anyone else's passkey, or one removed since: not found (404).
 */
export const removePasskeyIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: TITLE,
  hideFields: ["password"],
  formId: (fields) => `remove-passkey-${String(fields.get("passkeyId"))}`,
  async run({ passkeyId, password }, args) {
    await checkPassword(args, TITLE, password);
    await removePasskey(args.context, { id: passkeyId, ...ownerOf(args) });
    return {
      toast: {
        title: "Passkey removed",
        description: "It can no longer sign you in. You can also delete it from your device or password manager.",
      },
      redirectTo: "/settings#passkeys",
    };
  },
});
