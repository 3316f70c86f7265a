import { data } from "@remix-run/cloudflare";
import { z } from "zod";
import { Refusal } from "#app/utils/domain-errors.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";
import type { RecoveryCodesReply } from "#app/utils/two-factor.ts";
import { checkPassword } from "./two-factor-checks.server.ts";

const schema = z.object({ intent: z.literal("regenerate-recovery-codes"), password: z.string().default("") });
const TITLE = "Error generating recovery codes";

/** 'Generate new codes' (with the password): ten new recovery codes, shown once; the old ones stop working. */
export const regenerateRecoveryCodesIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: TITLE,
  hideFields: ["password"],
  async run({ password }, args) {
    const { request, context } = args;
    await checkPassword(args, TITLE, password);
    const response = await context.auth.api.generateBackupCodes({
      body: { password },
      headers: request.headers,
      asResponse: true,
    });
    if (response.status >= 500) throw new Error(`generateBackupCodes answered ${response.status}`);
    if (!response.ok) {
      throw new Refusal({ title: TITLE, description: "Two-factor authentication is not on." });
    }
    const { backupCodes } = (await response.json()) as { backupCodes: string[] };
    const reply: RecoveryCodesReply = {
      formId: "recovery-codes",
      recoveryCodes: backupCodes,
      toast: {
        title: "New recovery codes",
        description: "Your old codes no longer work. Save these now: they are shown only once.",
      },
    };
    return data(reply);
  },
});
