import { safeRedirectPath } from "#app/utils/cookies.server.ts";
import { Refusal } from "#app/utils/domain-errors.server.ts";
import { signInSchema } from "#app/utils/form-schemas.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import { emailFingerprint, pathOf, securityEvent } from "#app/utils/log.server.ts";
import { PASSWORD_LOCKOUT } from "#app/utils/rate-limit.server.ts";
import { redirect } from "@remix-run/cloudflare";
import { signInWithPassword } from "#app/services/accounts/sessions.server.ts";
import { enterAccount, twoFactorHref } from "#app/utils/sign-in.server.ts";
import {
  clearPasswordFailuresOf,
  passwordSignInPaused,
  recordPasswordFailure,
} from "#app/services/sign-in-lockout.server.ts";
import { limitAttempts, tooMany } from "./form.server.ts";

const TITLE = "Sign in failed";
const refuse = (status: 401 | 403, message: string) =>
  new Refusal({ title: TITLE, description: message, variant: "destructive" }, status);
/** The same words for every address, with an account or without (only a real owner is mailed). */
export const SIGN_IN_PAUSED_MESSAGE = `Too many wrong passwords for this email address: signing in with a password is paused for ${PASSWORD_LOCKOUT.seconds / 60} minutes. If it is your account, we have emailed you a link to choose a new password.`;

/** Sign in (intent `signin`): a session and on to where the person was going, else the dashboard. */
export const signInIntent = defineIntent<null, typeof signInSchema>({
  schema: signInSchema,
  failureTitle: TITLE,
  hideFields: ["password"],
  async run(value, { request, context }) {
    await limitAttempts(request, context, "sign-in");
    // Paused after repeated wrong passwords: refused before the password is even checked, so the
    // right one does not get through either.
    const address = await emailFingerprint(value.email);
    const paused = () => tooMany(request, context, "sign-in-paused", SIGN_IN_PAUSED_MESSAGE, address);
    if (await passwordSignInPaused(context, value.email)) throw paused();
    const appUrl = context.env.APP_URL ?? new URL(request.url).origin;
    const session = await signInWithPassword(context, {
      headers: request.headers,
      email: value.email,
      password: value.password,
      remember: value.remember === "on",
    });
    const destination = safeRedirectPath(value.redirectTo, "/dashboard");
    // The password was right; two-factor is on, so the code is asked next (no session yet).
    if (session.twoFactor) {
      await clearPasswordFailuresOf(context, value.email);
      return redirect(twoFactorHref(destination), { headers: session.headers });
    }
    if (!session.ok || !session.body.user) {
      const { body } = session;
      securityEvent("auth.failed", {
        reason: body.code === "EMAIL_NOT_VERIFIED" ? "email not verified" : "invalid email or password",
        route: pathOf(request),
        requestId: context.requestId,
        email: address,
      });
      // A wrong password, or an address without an account (answered and counted alike).
      if (session.status === 401 && (await recordPasswordFailure(context, { email: value.email, appUrl })))
        throw paused();
      const message =
        body.code === "EMAIL_NOT_VERIFIED"
          ? "Please confirm your email address first. We have sent you a new confirmation link."
          : (body.message ?? "Invalid email or password");
      throw refuse(session.status === 403 ? 403 : 401, message);
    }
    const entered = await enterAccount(
      context,
      request,
      { user: session.body.user, headers: session.headers },
      destination,
    );
    // Archived past the grace period: as good as purged, so answered (and counted) like an unknown address.
    if (!entered) {
      if (await recordPasswordFailure(context, { email: value.email, appUrl })) throw paused();
      throw refuse(401, "Invalid email or password");
    }
    await clearPasswordFailuresOf(context, value.email);
    return entered;
  },
});
