import { data } from "@remix-run/cloudflare";
import { z } from "zod";
import { newRecoveryCodes } from "#app/services/accounts/two-factor.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import { signedInAccount } from "#app/utils/signed-in-account.server.ts";
import type { RecoveryCodesReply } from "#app/utils/two-factor.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const schema = z.object({ intent: z.literal("regenerate-recovery-codes"), password: z.string().default("") });
const TITLE = "Error generating recovery codes";

/** 'Generate new codes' (with the password): ten new recovery codes, shown once; the old ones stop working. */
export const regenerateRecoveryCodesIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: TITLE,
  hideFields: ["password"],
  async run({ password }, args) {
    const reply: RecoveryCodesReply = {
      formId: "recovery-codes",
      recoveryCodes: await newRecoveryCodes(args.context, signedInAccount(args), password, TITLE),
      toast: {
        title: "New recovery codes",
        description: "Your old codes no longer work. Save these now: they are shown only once.",
      },
    };
    return data(reply);
  },
});
