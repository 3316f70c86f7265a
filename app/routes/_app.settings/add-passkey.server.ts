import { z } from "zod";
import { passkeyAdded } from "#app/services/passkeys.server.ts";
import { Refusal } from "#app/utils/domain-errors.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import { pathOf, securityEvent } from "#app/utils/log.server.ts";
import { passkeyNameField, passkeyRefusal, registrationResponseField } from "#app/utils/passkeys.server.ts";
import { readAuthAnswer } from "#app/utils/sign-in.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";
import { countPasskeys, MAX_PASSKEYS } from "#db/queries/passkeys.ts";
import { ADD_PASSKEY_TITLE, TOO_MANY_PASSKEYS } from "./passkey-options.server.ts";
import { ownerOf } from "./two-factor-checks.server.ts";

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
    const { request, context, viewer } = args;
    if ((await countPasskeys(context.db, viewer.id)) >= MAX_PASSKEYS)
      throw new Refusal({ title: ADD_PASSKEY_TITLE, description: TOO_MANY_PASSKEYS });
    const answer = await readAuthAnswer<{ id: string }>(
      await context.auth.api.verifyPasskeyRegistration({
        body: { response, ...(name ? { name } : {}) },
        headers: request.headers,
        asResponse: true,
      }),
    );
    if (!answer.ok) {
      securityEvent("auth.failed", {
        reason: `passkey not added: ${answer.body.code ?? answer.status}`,
        route: pathOf(request),
        requestId: context.requestId,
        userId: viewer.id,
      });
      // The library answers 500 for an answer it could not verify (another site's, a bad
      // signature): the browser's fault, not ours.
      if (answer.status >= 500 && answer.body.code !== "FAILED_TO_VERIFY_REGISTRATION")
        throw new Error(`verifyPasskeyRegistration answered ${answer.status}`);
      throw new Refusal({ title: ADD_PASSKEY_TITLE, description: passkeyRefusal(answer.body.code, "add") });
    }
    passkeyAdded(context, ownerOf(args));
    return {
      toast: {
        title: "Passkey added",
        description: "You can sign in with it now: choose 'Sign in with a passkey' on the sign-in page.",
      },
      redirectTo: "/settings#passkeys",
    };
  },
});
