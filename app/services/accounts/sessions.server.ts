import { cookieHeaders, readAuthAnswer, type SignedInUser } from "#app/utils/auth-answer.server.ts";
import type { AccountsContext } from "./account.server.ts";

// Sessions through the auth library: a password sign-in starts one, a sign-out ends this
// browser's. (Passkey and two-factor sign-ins start theirs in their own modules.)

/**
 * Signs in with a password: the library's answer, and the cookies to pass on. With two-factor on
 * (and this browser not trusted), no session starts yet: `twoFactor` is set and the cookies hold
 * the pending sign-in, which the second step completes.
 */
export async function signInWithPassword(
  context: AccountsContext,
  { email, password, remember, headers }: { email: string; password: string; remember: boolean; headers: Headers },
) {
  const response = await context.auth.api.signInEmail({
    body: { email, password, rememberMe: remember },
    headers,
    asResponse: true,
  });
  const answer = await readAuthAnswer<{ user?: SignedInUser; twoFactorRedirect?: boolean }>(response);
  const twoFactor = answer.ok && answer.body.twoFactorRedirect === true;
  return { ...answer, ok: answer.ok && Boolean(answer.body.user), twoFactor };
}

/** Ends the session of the request's cookies: the cookies that clear it in the browser. */
export async function signOut(context: AccountsContext, headers: Headers) {
  const response = await context.auth.api.signOut({ headers, asResponse: true });
  const cleared = new Headers();
  for (const cookie of response.headers.getSetCookie()) cleared.append("Set-Cookie", cookie);
  return cleared;
}

/** Ends a session just started (its cookies), as when the same code signed in twice at once. */
export async function endNewSession(context: AccountsContext, cookies: Headers) {
  await context.auth.api.signOut({ headers: cookieHeaders(cookies) }).catch(() => {});
}
