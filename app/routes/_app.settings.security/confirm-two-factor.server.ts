import { data } from "@remix-run/cloudflare";
import { z } from "zod";
import { confirmTwoFactor } from "#app/services/accounts/two-factor.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import { signedInAccount } from "#app/utils/signed-in-account.server.ts";
import type { RecoveryCodesReply } from "#app/utils/two-factor.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const schema = z.object({ intent: z.literal("confirm-two-factor"), code: z.string().default("") });
const TITLE = "Error turning on two-factor authentication";

/**
 * The first code from the app confirms the setup: two-factor is on, the person's other sessions
 * end (this one continues under a new token, as the library rotates it), and the ten recovery
 * codes are shown, this once.
 */
export const confirmTwoFactorIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: TITLE,
  hideFields: ["code"],
  async run({ code }, args) {
    const confirmed = await confirmTwoFactor(args.context, signedInAccount(args), code, TITLE);
    const reply: RecoveryCodesReply = {
      formId: "recovery-codes",
      recoveryCodes: confirmed.recoveryCodes,
      toast: {
        title: "Two-factor authentication is on",
        description:
          confirmed.endedOtherSessions > 0
            ? "You were signed out everywhere else. Save your recovery codes now: they are shown only once."
            : "Save your recovery codes now: they are shown only once.",
      },
    };
    return data(reply, { headers: confirmed.cookies });
  },
});
