import type { Auth } from "#app/utils/auth.server.ts";
import { PASSWORD_MAX_LENGTH } from "#app/utils/auth.server.ts";
import { Refusal } from "#app/utils/domain-errors.server.ts";
import {
  createMailer,
  passwordChangedEmail,
  signInMethodChangedEmail,
  type SignInMethodChange,
} from "#app/utils/email.server.ts";
import { FORGOT_PASSWORD_PATH } from "#app/utils/constants.ts";
import { errorSummary, log, securityEvent } from "#app/utils/log.server.ts";
import { limitPasswordCheck } from "#app/utils/rate-limit.server.ts";
import type { ServiceContext } from "../context.server.ts";

// The accounts service (issue 42): the one place that calls the auth library's write API
// (better-auth's `auth.api.*`). Routes may not (eslint.config.js): they hand over plain values and
// answer the domain errors thrown here. This module holds what every account change shares: who
// asks, the one re-check of a signed-in person's password, and the one mail about a security event.

/** What the accounts service needs: a service's context, and the auth library. */
export type AccountsContext = ServiceContext & { auth: Auth };

/**
 * A signed-in person asking to change their account, as plain values the route takes from the
 * request: the library reads the session (and a passkey's challenge) from the request's cookies.
 */
export type SignedInAccount = {
  userId: string;
  /** The session asking (decision 089: what it has confirmed is recorded on it). */
  sessionId: string;
  email: string;
  name: string;
  /** The request's headers, whose cookies the auth library reads. */
  headers: Headers;
  /** The client's network (`clientNetwork`), which the throttles count. */
  network: string;
  /** "POST /settings/security": where a refusal is logged from. */
  route: string;
  /** The app's own address, for the links in mails. */
  appUrl: string;
};

export const WRONG_PASSWORD = "Current password is incorrect";

/** How a form that asks for the password again says that it was wrong. */
export type PasswordRecheck = {
  /** The form's failure title (the spec's catalogue). */
  title: string;
  /** The field the password was typed in. */
  field?: string;
  /** The words under the field for a wrong password. */
  wrong?: string;
  /** The security log's words for a wrong password. */
  reason: string;
  /** A throttled check is also told under the field (permanent deletion's form), not by the toast alone. */
  throttledUnderField?: boolean;
};

/**
 * The one re-check of a signed-in person's password (two-factor, passkeys, permanent deletion;
 * a password change lets the library's `changePassword` be the check): the throttle, counted per
 * network and per account (decision 057), then the password, or a refusal under its field. A
 * session left open is not enough to change how the account signs in.
 */
export async function recheckPassword(
  context: AccountsContext,
  account: SignedInAccount,
  password: string,
  recheck: PasswordRecheck,
  check: (password: string) => Promise<boolean> = (password) =>
    context.auth.api.verifyPassword({ body: { password }, headers: account.headers }).then(
      () => true,
      () => false,
    ),
) {
  const { title, field = "password", wrong = WRONG_PASSWORD } = recheck;
  const throttled = await limitPasswordCheck(context.db, account.network, account.userId);
  if (throttled) {
    // No field is wrong: told by the toast alone, unless the form says it under its one field.
    throw new Refusal(
      { title, description: throttled },
      429,
      recheck.throttledUnderField ? { [field]: [throttled] } : {},
    );
  }
  const right = password.length > 0 && password.length <= PASSWORD_MAX_LENGTH && (await check(password));
  if (!right) {
    securityEvent("auth.failed", {
      reason: recheck.reason,
      route: account.route,
      requestId: context.requestId,
      userId: account.userId,
    });
    throw new Refusal({ title, description: wrong }, 400, { [field]: [wrong] });
  }
}

/** What the owner is told of by mail: a way to sign in changed, or the password did. */
export type SecurityEvent = SignInMethodChange | "password changed";

/**
 * The one mail about a security event of the account (ASVS 2.2.3), to its owner. It leaves after
 * the answer (`waitUntil`); a caller that should answer only once it left awaits the promise. A
 * failed mail never undoes the change.
 */
export function mailSecurityEvent(
  context: ServiceContext,
  owner: Pick<SignedInAccount, "email" | "name" | "appUrl">,
  event: SecurityEvent,
) {
  const { email, name, appUrl } = owner;
  const message =
    event === "password changed"
      ? passwordChangedEmail({ email, name, forgotUrl: `${appUrl}${FORGOT_PASSWORD_PATH}` })
      : signInMethodChangedEmail({ email, name, change: event, settingsUrl: `${appUrl}${settingsPathOf(event)}` });
  const sent = createMailer(context.env, context.db)
    .send(message)
    .catch((error) => log("error", "mail not sent", { error: errorSummary(error) }));
  context.cloudflare.ctx.waitUntil(sent);
  return sent;
}

/** Where Settings shows the way to sign in that changed. */
const settingsPathOf = (change: SignInMethodChange) =>
  change.startsWith("passkey") ? "/settings/security#passkeys" : "/settings/security#two-factor";
