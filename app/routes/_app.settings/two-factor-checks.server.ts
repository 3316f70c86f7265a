import type { AppLoadContext } from "@remix-run/cloudflare";
import { spendTotpCode } from "#app/services/two-factor.server.ts";
import { PASSWORD_MAX_LENGTH } from "#app/utils/auth.server.ts";
import { Refusal } from "#app/utils/domain-errors.server.ts";
import { pathOf, securityEvent } from "#app/utils/log.server.ts";
import { limitPasswordCheck } from "#app/utils/rate-limit.server.ts";
import { recoveryCodeFrom } from "#app/utils/recovery-code.ts";
import { readAuthenticator, stepOfCode } from "#app/utils/two-factor.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

// What the Settings forms of two-factor and passkeys ask before they change them (decisions 060, 061): the
// password, and to turn it off a current code as well. Each check is counted like a password
// change (per network and per account): the library's own checks in a session have no cap.

export const WRONG_PASSWORD = "Current password is incorrect";
export const WRONG_CODE = "That code is not right. Check your authenticator app and try again.";
export const USED_CODE = "That code was already used. Wait for the next one in your authenticator app.";

const refuse = (title: string, field: string, message: string, status: 400 | 429 = 400) =>
  new Refusal({ title, description: message }, status, { [field]: [message] });

/** The signed-in person as a mail about their sign-in settings is addressed (`mailSignInMethodChange`). */
export function ownerOf({ request, context, viewer }: { request: Request; context: AppLoadContext; viewer: Viewer }) {
  return {
    userId: viewer.id,
    email: viewer.email,
    name: viewer.fullName,
    appUrl: context.env.APP_URL ?? new URL(request.url).origin,
  };
}

/** The throttle, then the password (checked by the auth library), or a refusal under its field. */
export async function checkPassword(
  { request, context, viewer }: { request: Request; context: AppLoadContext; viewer: Viewer },
  title: string,
  password: string,
) {
  const throttled = await limitPasswordCheck(context.db, request, viewer.id);
  if (throttled) throw new Refusal({ title, description: throttled }, 429, {});
  const right =
    password.length > 0 &&
    password.length <= PASSWORD_MAX_LENGTH &&
    (await context.auth.api.verifyPassword({ body: { password }, headers: request.headers }).then(
      () => true,
      () => false,
    ));
  if (!right) {
    securityEvent("auth.failed", {
      reason: "wrong password for sign-in settings",
      route: pathOf(request),
      requestId: context.requestId,
      userId: viewer.id,
    });
    throw refuse(title, "password", WRONG_PASSWORD);
  }
}

/**
 * A current code from the authenticator app, used up (no code works twice), or a refusal under
 * the `code` field. With `orRecoveryCode`, a recovery code is taken too (and used up).
 */
export async function checkSecondFactor(
  { request, context, viewer }: { request: Request; context: AppLoadContext; viewer: Viewer },
  title: string,
  input: string,
  { orRecoveryCode = false } = {},
) {
  const code = input.replace(/\s/g, "");
  const wrong = () => {
    securityEvent("auth.failed", {
      reason: "wrong two-factor code in settings",
      route: pathOf(request),
      requestId: context.requestId,
      userId: viewer.id,
    });
    return refuse(title, "code", WRONG_CODE);
  };
  if (/^\d{6}$/.test(code)) {
    const authenticator = await readAuthenticator(context, viewer.id);
    const step = authenticator.secret ? await stepOfCode(authenticator.secret, code) : null;
    if (step === null) throw wrong();
    if (authenticator.lastTotpStep !== null && step <= authenticator.lastTotpStep)
      throw refuse(title, "code", USED_CODE);
    return { step, spend: () => spendTotpCode(context, { userId: viewer.id, step }) };
  }
  if (!orRecoveryCode) throw wrong();
  const response = await context.auth.api.verifyBackupCode({
    body: { code: recoveryCodeFrom(code), disableSession: true },
    headers: request.headers,
    asResponse: true,
  });
  if (!response.ok) throw wrong();
  return { step: null, spend: async () => true };
}
