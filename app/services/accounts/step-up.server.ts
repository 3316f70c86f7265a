import { Refusal } from "#app/utils/domain-errors.server.ts";
import { securityEvent } from "#app/utils/log.server.ts";
import { passkeyRefusal } from "#app/utils/passkeys.server.ts";
import { limitPasswordCheck } from "#app/utils/rate-limit.server.ts";
import { readAuthenticator } from "#app/utils/two-factor.server.ts";
import { markSessionStrong } from "#db/queries/accounts.ts";
import { recordPasskeySignIn } from "../passkeys.server.ts";
import type { AccountsContext, SignedInAccount } from "./account.server.ts";
import { verifyPasskeySignIn } from "./passkey-ceremonies.server.ts";
import { endNewSession } from "./sessions.server.ts";
import { checkSecondFactor } from "./two-factor.server.ts";

// Confirming a session signed in with the password alone (decision 089): the person's passkey, or
// a code from their authenticator app (or a recovery code), marks this session as having used a
// strong factor, which an organisation that asks its admins for one requires of their sessions.
// Each attempt is counted like a password check, per network and per account.

export const STEP_UP_TITLE = "Could not confirm it's you";
export const OTHER_ACCOUNTS_PASSKEY = "That passkey belongs to another account. Use one of your own.";

type Confirming = SignedInAccount;

async function throttle(context: AccountsContext, account: Confirming) {
  const throttled = await limitPasswordCheck(context.db, account.network, account.userId);
  if (throttled) throw new Refusal({ title: STEP_UP_TITLE, description: throttled }, 429, {});
}

function confirmed(context: AccountsContext, account: Confirming, factor: "code" | "passkey") {
  securityEvent("auth.step-up", {
    reason: `session confirmed with a ${factor}`,
    route: account.route,
    requestId: context.requestId,
    userId: account.userId,
  });
  return markSessionStrong(context.db, { sessionId: account.sessionId, userId: account.userId, factor });
}

/** With a current code from the authenticator app, or (`recovery`) a recovery code; each works once. */
export async function stepUpWithCode(
  context: AccountsContext,
  account: Confirming,
  { code, recovery }: { code: string; recovery: boolean },
) {
  await throttle(context, account);
  if (!(await readAuthenticator(context, account.userId)).enabled)
    throw new Refusal({ title: STEP_UP_TITLE, description: "Two-factor authentication is not on." });
  const secondFactor = await checkSecondFactor(context, account, STEP_UP_TITLE, code, {
    orRecoveryCode: recovery,
    failureReason: "wrong two-factor code at step-up",
  });
  if (!(await secondFactor.spend()))
    throw new Refusal({ title: STEP_UP_TITLE, description: "That code was already used." }, 400, {
      code: ["That code was already used."],
    });
  await confirmed(context, account, "code");
}

/**
 * With a passkey: the browser's answer to the challenge of /auth/passkey-options, checked by the
 * library, which signs in whoever's passkey it is. That new session ends at once: only this one,
 * and only for a passkey of this account, is confirmed.
 */
export async function stepUpWithPasskey(context: AccountsContext, account: Confirming, response: object) {
  await throttle(context, account);
  const answer = await verifyPasskeySignIn(context, { response, headers: account.headers });
  if (answer.ok) await endNewSession(context, answer.headers);
  if (!answer.ok || !answer.body.user) {
    securityEvent("auth.failed", {
      reason: `step-up passkey: ${answer.body.code ?? answer.status}`,
      route: account.route,
      requestId: context.requestId,
      userId: account.userId,
    });
    if (answer.status >= 500) throw new Error(`verifyPasskeyAuthentication answered ${answer.status}`);
    throw new Refusal({ title: STEP_UP_TITLE, description: passkeyRefusal(answer.body.code, "sign-in") }, 401);
  }
  if (answer.body.user.id !== account.userId) {
    securityEvent("auth.failed", {
      reason: "step-up with another account's passkey",
      route: account.route,
      requestId: context.requestId,
      userId: account.userId,
    });
    throw new Refusal({ title: STEP_UP_TITLE, description: OTHER_ACCOUNTS_PASSKEY }, 401);
  }
  await recordPasskeySignIn(context, (response as { id?: string }).id ?? "");
  await confirmed(context, account, "passkey");
}
