import { Refusal } from "#app/utils/domain-errors.server.ts";
import { securityEvent } from "#app/utils/log.server.ts";
import { passkeyRefusal } from "#app/utils/passkeys.server.ts";
import { readAuthAnswer, type SignedInUser } from "#app/utils/auth-answer.server.ts";
import { countPasskeys, MAX_PASSKEYS } from "#db/queries/passkeys.ts";
import { passkeyAdded } from "../passkeys.server.ts";
import { recheckPassword, type AccountsContext, type SignedInAccount } from "./account.server.ts";
import { SIGN_IN_SETTINGS } from "./two-factor.server.ts";
import { factorSetUp, refuseUnconfirmed } from "./confirmed-session.server.ts";

// Passkeys' WebAuthn ceremonies through the auth library's passkey plugin (decision 061): adding
// one in Settings (the password first), and signing in with one. Naming and removing are the app's
// own writes (app/services/passkeys.server.ts).

export const ADD_PASSKEY_TITLE = "Error adding passkey";
export const TOO_MANY_PASSKEYS = `You have ${MAX_PASSKEYS} passkeys, the most one account can hold. Remove one to add another.`;

async function refusePastTheCap(context: AccountsContext, userId: string) {
  if ((await countPasskeys(context.db, userId)) >= MAX_PASSKEYS)
    throw new Refusal({ title: ADD_PASSKEY_TITLE, description: TOO_MANY_PASSKEYS });
}

/**
 * 'Add a passkey', first step: the password, then the WebAuthn options the browser creates the
 * passkey with. Their challenge is kept 5 minutes against a cookie of this browser (returned with
 * the options), and only `addPasskey` in the same session can use it.
 */
export async function passkeyRegistrationOptions(context: AccountsContext, account: SignedInAccount, password: string) {
  await recheckPassword(context, account, password, { title: ADD_PASSKEY_TITLE, reason: SIGN_IN_SETTINGS });
  await refusePastTheCap(context, account.userId);
  await refuseUnconfirmed(context, account, ADD_PASSKEY_TITLE);
  const answer = await readAuthAnswer<Record<string, unknown>>(
    await context.auth.api.generatePasskeyRegistrationOptions({ headers: account.headers, asResponse: true }),
  );
  if (!answer.ok) throw new Error(`generatePasskeyRegistrationOptions answered ${answer.status}`);
  return { options: answer.body, cookies: answer.headers };
}

/**
 * 'Add a passkey', second step: the browser's new passkey, checked by the library against the
 * challenge of the first step, kept with its name; the owner is told.
 */
export async function addPasskey(
  context: AccountsContext,
  account: SignedInAccount,
  { response, name }: { response: object; name?: string },
) {
  await refusePastTheCap(context, account.userId);
  await refuseUnconfirmed(context, account, ADD_PASSKEY_TITLE);
  const answer = await readAuthAnswer<{ id: string }>(
    await context.auth.api.verifyPasskeyRegistration({
      // The schema checked its shape; the library checks the rest.
      body: { response: response as never, ...(name ? { name } : {}) },
      headers: account.headers,
      asResponse: true,
    }),
  );
  if (!answer.ok) {
    securityEvent("auth.failed", {
      reason: `passkey not added: ${answer.body.code ?? answer.status}`,
      route: account.route,
      requestId: context.requestId,
      userId: account.userId,
    });
    // The library answers 500 for an answer it could not verify (another site's, a bad
    // signature): the browser's fault, not ours.
    if (answer.status >= 500 && answer.body.code !== "FAILED_TO_VERIFY_REGISTRATION")
      throw new Error(`verifyPasskeyRegistration answered ${answer.status}`);
    throw new Refusal({ title: ADD_PASSKEY_TITLE, description: passkeyRefusal(answer.body.code, "add") });
  }
  passkeyAdded(context, account);
  // A passkey that verified the person, just now, in this session (decision 089).
  await factorSetUp(context, account, "passkey");
}

/**
 * A passkey sign-in's options, naming no account: any passkey of this site may answer. Their
 * challenge is kept 5 minutes against a cookie of this browser, returned with them.
 */
export async function passkeySignInOptions(context: AccountsContext) {
  const answer = await readAuthAnswer<Record<string, unknown>>(
    await context.auth.api.generatePasskeyAuthenticationOptions({ headers: new Headers(), asResponse: true }),
  );
  return { ok: answer.ok, status: answer.status, options: answer.body, cookies: answer.headers };
}

/**
 * The browser's answer to a sign-in challenge, checked by the library: who it signs in and the
 * session's cookies, or the library's refusal.
 */
export async function verifyPasskeySignIn(
  context: AccountsContext,
  { response, headers }: { response: object; headers: Headers },
) {
  return readAuthAnswer<{ user: SignedInUser }>(
    await context.auth.api.verifyPasskeyAuthentication({
      body: { response: response as never },
      headers,
      asResponse: true,
    }),
  );
}
