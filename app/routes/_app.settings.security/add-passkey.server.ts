import { z } from "zod";
import { addPasskey, ADD_PASSKEY_TITLE } from "#app/services/accounts/passkey-ceremonies.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import { passkeyNameField, registrationResponseField } from "#app/utils/passkeys.server.ts";
import { signedInAccount } from "#app/utils/signed-in-account.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const schema = z.object({
  intent: z.literal("add-passkey"),
  response: registrationResponseField,
  name: passkeyNameField.optional(),
});

/**
 * 'Add a passkey', second step: the browser's new passkey, checked by the auth library against the
 * challenge `passkey-options` gave this browser (after the password), and kept with its name.
 */
export const addPasskeyIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: ADD_PASSKEY_TITLE,
  formId: "passkey-options",
  async run({ response, name }, args) {
    await addPasskey(args.context, signedInAccount(args), { response, name });
    return {
      toast: {
        title: "Passkey added",
        description: "You can sign in with it now: choose 'Sign in with a passkey' on the sign-in page.",
      },
      redirectTo: "/settings/security#passkeys",
    };
  },
});
