import { PRODUCT_NAME } from "#app/utils/constants.ts";
import { Refusal } from "#app/utils/domain-errors.server.ts";
import { securityEvent } from "#app/utils/log.server.ts";
import { limitPasswordCheck } from "#app/utils/rate-limit.server.ts";
import { recoveryCodeHashOf, replaceWithNewRecoveryCodes } from "#app/utils/two-factor-secrets.server.ts";
import { cookieHeaders, readAuthAnswer, type SignedInUser } from "#app/utils/auth-answer.server.ts";
import { readAuthenticator, stepOfCode } from "#app/utils/two-factor.server.ts";
import { endSessionsOnTwoFactor, spendTotpCode } from "../two-factor.server.ts";
import { mailSecurityEvent, recheckPassword, type AccountsContext, type SignedInAccount } from "./account.server.ts";
import { factorSetUp, refuseUnconfirmed } from "./confirmed-session.server.ts";

// Two-factor sign-in through the auth library's twoFactor plugin (decision 060): Settings turns it
// on and off and makes new recovery codes, each after the password (and, to turn it off, a code);
// the sign-in's second step checks a code. Each check in Settings is counted like a password change.

export const WRONG_CODE = "That code is not right. Check your authenticator app and try again.";
export const USED_CODE = "That code was already used. Wait for the next one in your authenticator app.";

/** A wrong password in the two-factor and passkey forms of Settings, as the log says it. */
export const SIGN_IN_SETTINGS = "wrong password for sign-in settings";

const refuse = (title: string, field: string, message: string, status: 400 | 429 = 400) =>
  new Refusal({ title, description: message }, status, { [field]: [message] });

/**
 * 'Turn on' (with the password): a new authenticator secret, waiting for its first code. Asked
 * again before confirming, it starts over with a new secret.
 */
export async function startTwoFactor(
  context: AccountsContext,
  account: SignedInAccount,
  password: string,
  title: string,
) {
  await recheckPassword(context, account, password, { title, reason: SIGN_IN_SETTINGS });
  await refuseUnconfirmed(context, account, title);
  const response = await context.auth.api.enableTwoFactor({
    body: { password, issuer: PRODUCT_NAME },
    headers: account.headers,
    asResponse: true,
  });
  if (response.status === 400) throw new Refusal({ title, description: "Two-factor authentication is already on." });
  if (!response.ok) throw new Error(`enableTwoFactor answered ${response.status}`);
}

/**
 * The first code from the app confirms the setup: two-factor is on, the person's other sessions
 * end (this one continues under a new token, whose cookies are returned, as the library rotates
 * it), the owner is mailed, and the ten recovery codes are returned, to be shown this once.
 */
export async function confirmTwoFactor(
  context: AccountsContext,
  account: SignedInAccount,
  code: string,
  title: string,
) {
  const authenticator = await readAuthenticator(context, account.userId);
  if (!authenticator.secret || authenticator.verified) {
    throw new Refusal({ title, description: "There is no setup waiting. Please start again." });
  }
  await refuseUnconfirmed(context, account, title);
  // Counted like a password check: the library sets no cap on codes tried in a session.
  const throttled = await limitPasswordCheck(context.db, account.network, account.userId);
  if (throttled) throw new Refusal({ title, description: throttled }, 429, {});
  const secondFactor = await checkSecondFactor(context, account, title, code);
  const response = await context.auth.api.verifyTOTP({
    body: { code: code.replace(/\s/g, "") },
    headers: account.headers,
    asResponse: true,
  });
  if (response.status >= 500) throw new Error(`verifyTOTP answered ${response.status}`);
  if (!response.ok) throw refuse(title, "code", WRONG_CODE);
  await secondFactor.spend();
  const { headers: cookies } = await readAuthAnswer(response);
  const session = await context.auth.api.getSession({ headers: cookieHeaders(cookies) });
  if (!session) throw new Error("no session after turning on two-factor");
  // The session the library rotated to just used the new app's code (decision 089).
  await factorSetUp(context, { ...account, sessionId: session.session.id }, "code");
  const ended = await endSessionsOnTwoFactor(context, { userId: account.userId, keepSessionId: session.session.id });
  void mailSecurityEvent(context, account, "two-factor on");
  // Kept as hashes (decision 098): the codes shown are new ones, made now, in place of the setup's.
  const recoveryCodes = await replaceWithNewRecoveryCodes(context.db, account.userId);
  return { cookies, recoveryCodes, endedOtherSessions: ended };
}

/** 'Generate new codes' (with the password): ten new recovery codes; the old ones stop working. */
export async function newRecoveryCodes(
  context: AccountsContext,
  account: SignedInAccount,
  password: string,
  title: string,
) {
  await recheckPassword(context, account, password, { title, reason: SIGN_IN_SETTINGS });
  await refuseUnconfirmed(context, account, title);
  const response = await context.auth.api.generateBackupCodes({
    body: { password },
    headers: account.headers,
    asResponse: true,
  });
  if (response.status >= 500) throw new Error(`generateBackupCodes answered ${response.status}`);
  if (!response.ok) throw new Refusal({ title, description: "Two-factor authentication is not on." });
  const { backupCodes } = (await response.json()) as { backupCodes: string[] };
  return backupCodes;
}

/**
 * 'Turn off' asks for the password and a current code (or a recovery code): a session left open
 * is not enough. The library then forgets the secret, the codes and this browser's trust; the
 * cookies it sets are returned, and the owner is mailed.
 */
export async function turnOffTwoFactor(
  context: AccountsContext,
  account: SignedInAccount,
  { password, code, title }: { password: string; code: string; title: string },
) {
  if (!(await readAuthenticator(context, account.userId)).enabled) {
    throw new Refusal({ title, description: "Two-factor authentication is not on." });
  }
  await recheckPassword(context, account, password, { title, reason: SIGN_IN_SETTINGS });
  const secondFactor = await checkSecondFactor(context, account, title, code, { orRecoveryCode: true });
  if (!(await secondFactor.spend())) throw refuse(title, "code", "That code was already used.");
  const response = await context.auth.api.disableTwoFactor({
    body: { password },
    headers: account.headers,
    asResponse: true,
  });
  if (!response.ok) throw new Error(`disableTwoFactor answered ${response.status}`);
  void mailSecurityEvent(context, account, "two-factor off");
  return (await readAuthAnswer(response)).headers;
}

/**
 * A current code from the authenticator app, to be used up (no code works twice), or a refusal
 * under the `code` field. With `orRecoveryCode`, a recovery code is taken too (and used up).
 */
export async function checkSecondFactor(
  context: AccountsContext,
  account: SignedInAccount,
  title: string,
  input: string,
  {
    orRecoveryCode = false,
    failureReason = "wrong two-factor code in settings",
  }: { orRecoveryCode?: boolean; failureReason?: string } = {},
) {
  const code = input.replace(/\s/g, "");
  const wrong = () => {
    securityEvent("auth.failed", {
      reason: failureReason,
      route: account.route,
      requestId: context.requestId,
      userId: account.userId,
    });
    return refuse(title, "code", WRONG_CODE);
  };
  const { userId } = account;
  if (/^\d{6}$/.test(code)) {
    const authenticator = await readAuthenticator(context, userId);
    const step = authenticator.secret ? await stepOfCode(authenticator.secret, code) : null;
    if (step === null) throw wrong();
    if (authenticator.lastTotpStep !== null && step <= authenticator.lastTotpStep)
      throw refuse(title, "code", USED_CODE);
    return { spend: () => spendTotpCode(context, { userId, step }) };
  }
  if (!orRecoveryCode) throw wrong();
  const response = await context.auth.api.verifyBackupCode({
    body: { code: await recoveryCodeHashOf(code), disableSession: true },
    headers: account.headers,
    asResponse: true,
  });
  if (!response.ok) throw wrong();
  return { spend: async () => true };
}

/**
 * The sign-in's second step (decision 060): the library checks a code from the app or a recovery
 * code against the pending sign-in this browser's cookies hold. Its answer, read: the person
 * signed in and the session's cookies, or the library's refusal code.
 */
export async function verifySignInCode(
  context: AccountsContext,
  {
    method,
    code,
    trustDevice,
    headers,
  }: { method: "totp" | "recovery"; code: string; trustDevice: boolean; headers: Headers },
) {
  const verify = method === "totp" ? context.auth.api.verifyTOTP : context.auth.api.verifyBackupCode;
  // The library holds recovery codes as hashes (decision 098), and compares what it is given.
  const given = method === "totp" ? code : await recoveryCodeHashOf(code);
  return readAuthAnswer<{ user: SignedInUser }>(
    await verify({ body: { code: given, trustDevice }, headers, asResponse: true }),
  );
}
