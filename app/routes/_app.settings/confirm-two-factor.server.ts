import { data } from "@remix-run/cloudflare";
import { z } from "zod";
import { mailSignInMethodChange } from "#app/services/sign-in-method-mail.server.ts";
import { endSessionsOnTwoFactor } from "#app/services/two-factor.server.ts";
import { Refusal } from "#app/utils/domain-errors.server.ts";
import { mergeHeaders } from "#app/utils/form-reply.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import { limitPasswordCheck } from "#app/utils/rate-limit.server.ts";
import { cookieHeaders } from "#app/utils/sign-in.server.ts";
import { readAuthenticator } from "#app/utils/two-factor.server.ts";
import type { RecoveryCodesReply } from "#app/utils/two-factor.ts";
import type { Viewer } from "#app/utils/viewer.ts";
import { checkSecondFactor, ownerOf, WRONG_CODE } from "./two-factor-checks.server.ts";

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
    const { request, context, viewer } = args;
    const authenticator = await readAuthenticator(context, viewer.id);
    if (!authenticator.secret || authenticator.verified) {
      throw new Refusal({ title: TITLE, description: "There is no setup waiting. Please start again." });
    }
    // Counted like a password check: the library sets no cap on codes tried in a session.
    const throttled = await limitPasswordCheck(context.db, request, viewer.id);
    if (throttled) throw new Refusal({ title: TITLE, description: throttled }, 429, {});
    const secondFactor = await checkSecondFactor(args, TITLE, code);
    const response = await context.auth.api.verifyTOTP({
      body: { code: code.replace(/\s/g, "") },
      headers: request.headers,
      asResponse: true,
    });
    if (response.status >= 500) throw new Error(`verifyTOTP answered ${response.status}`);
    if (!response.ok) throw new Refusal({ title: TITLE, description: WRONG_CODE }, 400, { code: [WRONG_CODE] });
    await secondFactor.spend();
    const headers = mergeHeaders(response.headers);
    const session = await context.auth.api.getSession({ headers: cookieHeaders(headers) });
    if (!session) throw new Error("no session after turning on two-factor");
    const ended = await endSessionsOnTwoFactor(context, { userId: viewer.id, keepSessionId: session.session.id });
    mailSignInMethodChange(context, { ...ownerOf(args), change: "two-factor on" });
    const { backupCodes } = await context.auth.api.viewBackupCodes({ body: { userId: viewer.id } });
    const reply: RecoveryCodesReply = {
      formId: "recovery-codes",
      recoveryCodes: backupCodes,
      toast: {
        title: "Two-factor authentication is on",
        description:
          ended > 0
            ? "You were signed out everywhere else. Save your recovery codes now: they are shown only once."
            : "Save your recovery codes now: they are shown only once.",
      },
    };
    return data(reply, { headers });
  },
});
