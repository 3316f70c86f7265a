import { data, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { Refusal } from "#app/utils/domain-errors.server.ts";
import { PASSWORD_MAX_LENGTH } from "#app/utils/auth.server.ts";
import { pathOf, securityEvent } from "#app/utils/log.server.ts";
import { isSessionCookieLine } from "#app/utils/session.server.ts";
import { clearSignUpCookieHeader } from "#app/utils/cookies.server.ts";
import { confirmAccount, discardSession, isAccountPassword } from "#app/services/sign-up.server.ts";
import { limitAttempts } from "../auth/form.server.ts";
import { checkLink } from "./confirmation-link.server.ts";
import { confirmEmail } from "#app/services/accounts/email-and-password.server.ts";

const failed = (status = 400) => data({ ok: false as const, organisationCreated: false, signedIn: false }, { status });

/** Asks this browser for the account's password (its form posts the token again), and what was wrong. */
const askForPassword = (token: string, error: string | null, status: number) =>
  data({ ok: false as const, askPassword: true as const, token, passwordError: error }, { status });

/** The confirmation itself: what the page posts (route.tsx answers anything it throws unexpectedly). */
export async function confirm({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const token = form.get("token");
  const checked = typeof token === "string" ? await checkLink(context, request, token) : null;
  if (typeof token !== "string" || !checked?.ok) {
    securityEvent("auth.failed", {
      reason: checked?.reason ?? "malformed confirmation token",
      route: pathOf(request),
      requestId: context.requestId,
      userId: checked?.userId ?? null,
    });
    return failed();
  }
  const { user, signedUpHere, needsPassword } = checked;

  if (needsPassword) {
    const password = form.get("password");
    if (typeof password !== "string" || password === "") return askForPassword(token, null, 200);
    try {
      await limitAttempts(request, context, "sign-in");
    } catch (error) {
      if (error instanceof Refusal)
        return askForPassword(token, error.toast.description ?? error.toast.title, error.status);
      throw error;
    }
    if (password.length > PASSWORD_MAX_LENGTH || !(await isAccountPassword(context, user.id, password))) {
      securityEvent("auth.failed", {
        reason: "wrong password for confirmation in another browser",
        route: pathOf(request),
        requestId: context.requestId,
        userId: user.id,
      });
      return askForPassword(token, "Password is incorrect", 400);
    }
  }

  const response = await confirmEmail(context, { token, headers: request.headers });
  if (!response.ok) {
    securityEvent("auth.failed", {
      reason: "invalid or expired confirmation token",
      route: pathOf(request),
      requestId: context.requestId,
      userId: user.id,
      status: response.status,
    });
    return failed();
  }

  const organisationCreated = await confirmAccount(context, user);
  // Signed in: the browser that signed up, or one that has just given the password. A link opened
  // anywhere else (another device, or a victim's browser fed an attacker's link: a login CSRF) of
  // an address already confirmed confirms nothing more and signs nobody in.
  const signsIn = signedUpHere || needsPassword;
  const sessionCookies = response.headers.getSetCookie();
  const headers = new Headers();
  if (signsIn) {
    for (const cookie of sessionCookies) headers.append("Set-Cookie", cookie);
    if (signedUpHere) headers.append("Set-Cookie", await clearSignUpCookieHeader(context.env, request));
  } else {
    const sessionToken = sessionTokenOf(sessionCookies);
    if (sessionToken) await discardSession(context, sessionToken);
  }
  return data({ ok: true as const, organisationCreated, signedIn: signsIn && sessionCookies.length > 0 }, { headers });
}

/** The session token in the auth library's Set-Cookie lines ("token.signature", URL-encoded). */
function sessionTokenOf(setCookies: string[]) {
  const line = setCookies.find(isSessionCookieLine);
  if (!line) return null;
  const value = decodeURIComponent(line.slice(line.indexOf("=") + 1).split(";")[0] ?? "");
  return value.split(".")[0] || null;
}
