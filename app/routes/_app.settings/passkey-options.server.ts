import { data } from "@remix-run/cloudflare";
import { z } from "zod";
import { Refusal } from "#app/utils/domain-errors.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import { readAuthAnswer } from "#app/utils/sign-in.server.ts";
import { passkeyNameField } from "#app/utils/passkeys.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";
import { countPasskeys, MAX_PASSKEYS } from "#db/queries/passkeys.ts";
import { checkPassword } from "./two-factor-checks.server.ts";

const schema = z.object({
  intent: z.literal("passkey-options"),
  password: z.string().default(""),
  name: passkeyNameField.optional(),
});
export const ADD_PASSKEY_TITLE = "Error adding passkey";
export const TOO_MANY_PASSKEYS = `You have ${MAX_PASSKEYS} passkeys, the most one account can hold. Remove one to add another.`;

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
    const { request, context, viewer } = args;
    await checkPassword(args, ADD_PASSKEY_TITLE, password);
    if ((await countPasskeys(context.db, viewer.id)) >= MAX_PASSKEYS)
      throw new Refusal({ title: ADD_PASSKEY_TITLE, description: TOO_MANY_PASSKEYS });
    const answer = await readAuthAnswer<Record<string, unknown>>(
      await context.auth.api.generatePasskeyRegistrationOptions({ headers: request.headers, asResponse: true }),
    );
    if (!answer.ok) throw new Error(`generatePasskeyRegistrationOptions answered ${answer.status}`);
    return data(
      { formId: "passkey-options", passkeyOptions: answer.body, name: name ?? "" },
      { headers: answer.headers },
    );
  },
});
