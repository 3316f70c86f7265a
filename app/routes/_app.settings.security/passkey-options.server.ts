import { data } from "@remix-run/cloudflare";
import { z } from "zod";
import { ADD_PASSKEY_TITLE, passkeyRegistrationOptions } from "#app/services/accounts/passkey-ceremonies.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import { passkeyNameField } from "#app/utils/passkeys.server.ts";
import { signedInAccount } from "#app/utils/signed-in-account.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const schema = z.object({
  intent: z.literal("passkey-options"),
  password: z.string().default(""),
  name: passkeyNameField.optional(),
});

/**
 * 'Add a passkey', first step (docs/decisions/061): the password, then the WebAuthn options the
 * browser creates the passkey with. The challenge they carry is kept for 5 minutes against a
 * cookie of this browser, and only `add-passkey` in the same session can use it: an open session
 * alone cannot add a passkey. The page then offers 'Create passkey', which starts the ceremony
 * (a click of its own: browsers create passkeys only in answer to one).
 */
export const passkeyOptionsIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: ADD_PASSKEY_TITLE,
  hideFields: ["password"],
  async run({ password, name }, args) {
    const { options, cookies } = await passkeyRegistrationOptions(args.context, signedInAccount(args), password);
    return data({ formId: "passkey-options", passkeyOptions: options, name: name ?? "" }, { headers: cookies });
  },
});
