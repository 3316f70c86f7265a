import { stepUpPath } from "#app/utils/admin-sign-in.ts";
import { usedStrongFactor } from "#app/utils/authorization.server.ts";
import { Refusal } from "#app/utils/domain-errors.server.ts";
import { securityEvent } from "#app/utils/log.server.ts";
import { readAuthenticator } from "#app/utils/two-factor.server.ts";
import { markSessionStrong } from "#db/queries/accounts.ts";
import { countPasskeys } from "#db/queries/passkeys.ts";
import type { AccountsContext, SignedInAccount } from "./account.server.ts";

// What a session has confirmed (decision 089), as the forms that change how an account signs in
// need it: a session signed in with the password alone adds no factor to an account that holds
// one, and the first factor set up in a session counts as used by it.

/** The strong factors the person can confirm with: whether two-factor is on, and whether they hold a passkey. */
export async function strongFactorsOf(context: AccountsContext, userId: string) {
  const [authenticator, passkeys] = await Promise.all([
    readAuthenticator(context, userId),
    countPasskeys(context.db, userId),
  ]);
  return { code: authenticator.enabled, passkey: passkeys > 0 };
}

/**
 * Whether this session must confirm a strong factor before it changes how the account signs in
 * (a passkey added, two-factor turned on, new recovery codes): when the account holds one and the
 * session did not use it. Else a password alone could add a factor of its own and sign in with
 * it, past an organisation's requirement. The first factor of an account is set up freely.
 */
export async function mustConfirmFirst(context: AccountsContext, account: SignedInAccount) {
  if (usedStrongFactor(context, account.userId)) return false;
  const factors = await strongFactorsOf(context, account.userId);
  return factors.code || factors.passkey;
}

export const CONFIRM_FIRST =
  "You signed in with your password only. Confirm it's you with your passkey or authenticator app first.";

/** Refuses a change of sign-in methods from a session that must confirm first (`mustConfirmFirst`). */
export async function refuseUnconfirmed(context: AccountsContext, account: SignedInAccount, title: string) {
  if (await mustConfirmFirst(context, account)) {
    securityEvent("authz.denied", {
      reason: "sign-in methods changed from an unconfirmed session",
      route: account.route,
      requestId: context.requestId,
      userId: account.userId,
    });
    // Where to confirm it, and back to Settings after (decision 089).
    const link = { href: stepUpPath("/settings/security"), label: "Confirm it's you" };
    throw new Refusal({ title, description: CONFIRM_FIRST, link }, 403);
  }
}

/**
 * The first strong factor set up in this session counts as used by it (decision 089): the
 * person just proved it (a code from the new app, a passkey that verified them).
 */
export const factorSetUp = (context: AccountsContext, account: SignedInAccount, factor: "code" | "passkey") =>
  markSessionStrong(context.db, { sessionId: account.sessionId, userId: account.userId, factor });
