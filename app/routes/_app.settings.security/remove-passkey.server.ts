import { z } from "zod";
import { removePasskeyConfirmed } from "#app/services/accounts/passkey-removal.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import { authenticationResponseField } from "#app/utils/passkeys.server.ts";
import { signedInAccount } from "#app/utils/signed-in-account.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const schema = z.object({
  intent: z.literal("remove-passkey"),
  passkeyId: z.string().min(1).max(64),
  password: z.string().default(""),
  // Another of the person's passkeys, instead of the password (the page's script posts it).
  response: authenticationResponseField.optional(),
});
const TITLE = "Error removing passkey";

/**
 * 'Remove' one of the person's passkeys, after the password or another of their passkeys
 * (decision 091): a session left open is not enough. Anyone else's passkey, or one removed
 * since: not found (404).
 */
export const removePasskeyIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: TITLE,
  hideFields: ["password"],
  formId: (fields) => `remove-passkey-${String(fields.get("passkeyId"))}`,
  async run({ passkeyId, password, response }, args) {
    await removePasskeyConfirmed(args.context, signedInAccount(args), { passkeyId, password, response, title: TITLE });
    return {
      toast: {
        title: "Passkey removed",
        description: "It can no longer sign you in. You can also delete it from your device or password manager.",
      },
      redirectTo: "/settings/security#passkeys",
    };
  },
});
