import { closeNotificationSockets } from "#app/utils/person-hub.server.ts";
import { guessablePasswordRefusal } from "#app/utils/password-rules.server.ts";
import { mailSecurityEvent, recheckPassword, type AccountsContext, type SignedInAccount } from "./account.server.ts";

// A password's changes through the auth library: Settings' change, the forgotten password's link
// and its mail (decision 014).

/**
 * Settings' 'Change Password': the library checks the current password (the one re-check's
 * throttle first) and ends every other session; this one continues under a new token, whose
 * cookies are returned. The owner is mailed before the answer.
 */
export async function changePassword(
  context: AccountsContext,
  account: SignedInAccount,
  { currentPassword, newPassword, title }: { currentPassword: string; newPassword: string; title: string },
) {
  const guessable = guessablePasswordRefusal(newPassword, { email: account.email, name: account.name }, "newPassword");
  if (guessable) throw guessable;
  const cookies = new Headers();
  await recheckPassword(
    context,
    account,
    currentPassword,
    { title, field: "currentPassword", reason: "wrong current password" },
    async (currentPassword) => {
      const response = await context.auth.api.changePassword({
        body: { currentPassword, newPassword, revokeOtherSessions: true },
        headers: account.headers,
        asResponse: true,
      });
      if (response.status >= 500) throw new Error(`changePassword answered ${response.status}`);
      for (const cookie of response.headers.getSetCookie()) cookies.append("Set-Cookie", cookie);
      return response.ok;
    },
  );
  // Every other session ends, and its tabs' sockets close.
  context.cloudflare.ctx.waitUntil(closeNotificationSockets(context, account.userId));
  await mailSecurityEvent(context, account, "password changed");
  return cookies;
}

/**
 * A forgotten password's new one, from the mailed link: the library consumes the token and ends
 * every session of the account in one transaction (and mails the owner). False when the token
 * is invalid, used or expired.
 */
export function resetPassword(
  context: AccountsContext,
  { token, newPassword }: { token: string; newPassword: string },
) {
  return context.auth.api.resetPassword({ body: { token, newPassword } }).then(
    () => true,
    () => false,
  );
}

/**
 * Mails a link to choose a new password, if the address has an account, after the answer: the
 * library looks the address up and mails only known ones, so a known address answers as fast.
 */
export function requestPasswordReset(
  context: AccountsContext,
  { email, headers }: { email: string; headers: Headers },
) {
  context.cloudflare.ctx.waitUntil(
    context.auth.api.requestPasswordReset({ body: { email }, headers }).catch((error) => {
      console.error(JSON.stringify({ level: "error", message: "password reset request failed", error: String(error) }));
    }),
  );
}
