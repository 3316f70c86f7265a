import { z } from "zod";
import { recheckPassword } from "#app/services/accounts/account.server.ts";
import { SIGN_IN_SETTINGS } from "#app/services/accounts/two-factor.server.ts";
import { removePasskey } from "#app/services/passkeys.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import { signedInAccount } from "#app/utils/signed-in-account.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

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
    const account = signedInAccount(args);
    await recheckPassword(args.context, account, password, { title: TITLE, reason: SIGN_IN_SETTINGS });
    await removePasskey(args.context, { id: passkeyId, ...account });
    return {
      toast: {
        title: "Passkey removed",
        description: "It can no longer sign you in. You can also delete it from your device or password manager.",
      },
      redirectTo: "/settings/security#passkeys",
    };
  },
});
