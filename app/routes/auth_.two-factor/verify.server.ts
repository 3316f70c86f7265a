import { redirect, type AppLoadContext } from "@remix-run/cloudflare";
import { z } from "zod";
import { endNewSession } from "#app/services/accounts/sessions.server.ts";
import { verifySignInCode } from "#app/services/accounts/two-factor.server.ts";
import { spendTotpCode } from "#app/services/two-factor.server.ts";
import { redirectWithToast, safeRedirectPath } from "#app/utils/cookies.server.ts";
import { Refusal } from "#app/utils/domain-errors.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import { pathOf, securityEvent } from "#app/utils/log.server.ts";
import { authenticatorCodeField, recoveryCodeField } from "#app/utils/second-factor-fields.ts";
import { enterAccount } from "#app/utils/sign-in.server.ts";
import { pendingSignInUserId, readAuthenticator, stepOfCode } from "#app/utils/two-factor.server.ts";
import { limitAttempts } from "../auth/form.server.ts";

const TITLE = "Sign in failed";
export const WRONG_CODE = "That code is not right. Check your authenticator app and try again.";
export const USED_CODE = "That code was already used. Wait for the next one in your authenticator app.";
export const WRONG_RECOVERY_CODE = "That recovery code is not right, or it was already used.";
const ENDED = "Your sign-in has ended: too many wrong codes, or more than 10 minutes passed. Please sign in again.";
const LOCKED = "Too many wrong codes for this account. Please wait 15 minutes and try again.";

const common = { trustDevice: z.literal("on").optional(), redirectTo: z.string().optional() };
const codeSchema = z.object({
  intent: z.literal("verify-code"),
  code: authenticatorCodeField,
  ...common,
});
const recoverySchema = z.object({
  intent: z.literal("verify-recovery-code"),
  code: recoveryCodeField,
  ...common,
});

/** Back to sign-in, the pending sign-in (if any) gone: the library's answer expires its cookie. */
const signInAgain = (context: AppLoadContext, request: Request, headers?: Headers) =>
  redirectWithToast(
    context.env,
    request,
    "/auth",
    { title: "Please sign in again", description: ENDED, variant: "destructive" },
    { headers },
  );

/** The second sign-in step, with a code from the authenticator app or with a recovery code. */
function verifyIntent(method: "totp" | "recovery") {
  const wrong = method === "totp" ? WRONG_CODE : WRONG_RECOVERY_CODE;
  const refuse = (message: string, status: 400 | 401 | 429 = 401) =>
    new Refusal({ title: TITLE, description: message, variant: "destructive" }, status, { code: [message] });
  return defineIntent<null, typeof codeSchema | typeof recoverySchema>({
    schema: method === "totp" ? codeSchema : recoverySchema,
    failureTitle: TITLE,
    hideFields: ["code"],
    async run(value, { request, context }) {
      const userId = await pendingSignInUserId(context, request);
      if (!userId) return signInAgain(context, request);
      await limitAttempts(request, context, "two-factor");
      // A code is good once (ASVS 2.8.4): one of a step already used is refused before the
      // library sees it, and the step of a code it accepts is recorded, atomically, below.
      let step: number | null = null;
      if (method === "totp") {
        const authenticator = await readAuthenticator(context, userId);
        step = authenticator.secret ? await stepOfCode(authenticator.secret, value.code) : null;
        if (step !== null && authenticator.lastTotpStep !== null && step <= authenticator.lastTotpStep)
          throw refuse(USED_CODE, 400);
      }
      const response = await verifySignInCode(context, {
        method,
        code: value.code,
        trustDevice: value.trustDevice === "on",
        headers: request.headers,
      });
      const { body, headers } = response;
      if (!response.ok || !body.user) {
        securityEvent("auth.failed", {
          reason: `second step: ${body.code ?? response.status}`,
          route: pathOf(request),
          requestId: context.requestId,
          userId,
        });
        if (body.code === "ACCOUNT_TEMPORARILY_LOCKED") throw refuse(LOCKED, 429);
        if (body.code === "INVALID_CODE" || body.code === "INVALID_BACKUP_CODE") throw refuse(wrong);
        // Too many wrong codes (the 6th try), the 10 minutes are up, or a race consumed it.
        if (response.status < 500) return signInAgain(context, request, headers);
        throw new Error(`two-factor verification answered ${response.status}`);
      }
      const session = { user: body.user, headers };
      if (step !== null && !(await spendTotpCode(context, { userId, step }))) {
        // The same code, accepted twice at once: only the first sign-in stands.
        await endNewSession(context, headers);
        return signInAgain(context, request);
      }
      const destination = safeRedirectPath(value.redirectTo, "/dashboard");
      // Archived past the grace period: as good as gone, answered as the password step would.
      return (await enterAccount(context, request, session, destination)) ?? redirect("/auth");
    },
  });
}

export const verifyCodeIntent = verifyIntent("totp");
export const verifyRecoveryCodeIntent = verifyIntent("recovery");
