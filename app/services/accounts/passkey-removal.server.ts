import { Refusal } from "#app/utils/domain-errors.server.ts";
import { securityEvent } from "#app/utils/log.server.ts";
import { passkeyRefusal } from "#app/utils/passkeys.server.ts";
import { limitPasswordCheck } from "#app/utils/rate-limit.server.ts";
import { passkeyIdOfCredential } from "#db/queries/passkeys.ts";
import { recordPasskeySignIn, removePasskey } from "../passkeys.server.ts";
import { recheckPassword, type AccountsContext, type SignedInAccount } from "./account.server.ts";
import { verifyPasskeySignIn } from "./passkey-ceremonies.server.ts";
import { endNewSession } from "./sessions.server.ts";
import { OTHER_ACCOUNTS_PASSKEY } from "./step-up.server.ts";
import { SIGN_IN_SETTINGS } from "./two-factor.server.ts";

// Removing a passkey (issue 30, decision 091): confirmed with the password, or with another of the
// person's passkeys (an account may hold no password it knows, or its owner may prefer a passkey).
// A session left open is not enough either way.

export const SAME_PASSKEY = "Confirm with another of your passkeys, not the one you are removing.";

const refuse = (
  title: string,
  description: string,
  reason: string,
  account: SignedInAccount,
  context: AccountsContext,
) => {
  securityEvent("auth.failed", { reason, route: account.route, requestId: context.requestId, userId: account.userId });
  return new Refusal({ title, description }, 400, { "": [description] });
};

/**
 * The browser's answer to a sign-in challenge (POST /auth/passkey-options), checked by the
 * library, which signs in whoever's passkey it is: that new session ends at once. It confirms
 * only for a passkey of this account other than `passkeyId`. Counted like a password check.
 */
async function confirmWithAnotherPasskey(
  context: AccountsContext,
  account: SignedInAccount,
  { passkeyId, response, title }: { passkeyId: string; response: object; title: string },
) {
  const throttled = await limitPasswordCheck(context.db, account.network, account.userId);
  if (throttled) throw new Refusal({ title, description: throttled }, 429, {});
  const answer = await verifyPasskeySignIn(context, { response, headers: account.headers });
  if (answer.ok) await endNewSession(context, answer.headers);
  if (!answer.ok || !answer.body.user) {
    if (answer.status >= 500) throw new Error(`verifyPasskeyAuthentication answered ${answer.status}`);
    const why = `passkey removal confirmed by passkey: ${answer.body.code ?? answer.status}`;
    throw refuse(title, passkeyRefusal(answer.body.code, "sign-in"), why, account, context);
  }
  if (answer.body.user.id !== account.userId)
    throw refuse(
      title,
      OTHER_ACCOUNTS_PASSKEY,
      "passkey removal confirmed by another account's passkey",
      account,
      context,
    );
  const credentialId = (response as { id?: string }).id ?? "";
  const used = await passkeyIdOfCredential(context.db, { userId: account.userId, credentialId });
  if (used === passkeyId)
    throw refuse(title, SAME_PASSKEY, "passkey removal confirmed by the passkey removed", account, context);
  await recordPasskeySignIn(context, credentialId);
}

/** 'Remove passkey': after the password, or (`response`) another of the person's passkeys. */
export async function removePasskeyConfirmed(
  context: AccountsContext,
  account: SignedInAccount,
  { passkeyId, password, response, title }: { passkeyId: string; password: string; response?: object; title: string },
) {
  if (response) await confirmWithAnotherPasskey(context, account, { passkeyId, response, title });
  else await recheckPassword(context, account, password, { title, reason: SIGN_IN_SETTINGS });
  await removePasskey(context, { id: passkeyId, ...account });
}
