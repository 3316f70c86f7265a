import { errorSummary, log } from "./log.server.ts";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { twoFactor } from "better-auth/plugins/two-factor";
import { passkey } from "@better-auth/passkey";
import { APIError } from "better-auth/api";
import type { Db } from "#db/client.ts";
import { findPendingOrganizationSetup } from "#db/queries/accounts.ts";
import * as schema from "#db/schema.ts";
import { FORGOT_PASSWORD_PATH, PRODUCT_NAME, RESET_PASSWORD_PATH } from "./constants.ts";
import {
  createMailer,
  existingAccountEmail,
  passwordChangedEmail,
  passwordResetEmail,
  verificationEmail,
} from "./email.server.ts";
import type { AppEnv } from "./env.server.ts";
import { safeRedirectPath } from "./cookies.server.ts";
import { hashPassword, verifyPassword } from "#db/password.server.ts";
import { sessionRecordOf } from "./sign-in-method.server.ts";
import {
  generateRecoveryCodes,
  RECOVERY_CODE_COUNT,
  recoveryCodeStore,
  twoFactorKeyOf,
  twoFactorSecrets,
} from "./two-factor-secrets.server.ts";

export const AUTH_BASE_PATH = "/api/auth";
/** Our cookies are named {prefix}.{name}; the session cookie is {prefix}.session_token. */
export const AUTH_COOKIE_PREFIX = "passport";
const ONE_DAY_IN_SECONDS = 60 * 60 * 24;
/**
 * A session ends after 7 days unused (better-auth's expiresIn, moved forward as it is used) and
 * at the latest 30 days after it started, however much it is used: a trigger on the sessions
 * table caps its expiry at that (migrations/0012_sessions.sql, docs/decisions/058).
 */
const SESSION_IDLE_SECONDS = 7 * ONE_DAY_IN_SECONDS;
/** How often a session in use is refreshed: its expiry moves on, and its "last seen" with it. */
const SESSION_REFRESH_SECONDS = 60 * 60;
/** A forgot-password link works once, for an hour. */
export const PASSWORD_RESET_SECONDS = 60 * 60;
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 128;

/** The library's refusal of a passkey that was used without the person's PIN, fingerprint or face. */
export const USER_NOT_VERIFIED = "USER_NOT_VERIFIED";
const passkeyWithoutUserVerification = () =>
  new APIError("BAD_REQUEST", { code: USER_NOT_VERIFIED, message: "The passkey did not verify the person" });

// One better-auth instance per request: its database and secrets come from that request's bindings.
// `place` is where the request came from ("Amsterdam, Netherlands"), kept on the session it starts or refreshes.
// `waitUntil` is the request's: the library's mails leave after the answer, so an answer takes the
// same time whether or not the address it names has an account.
export function createAuth({
  db,
  env,
  origin,
  place = null,
  waitUntil,
}: {
  db: Db;
  env: AppEnv;
  origin: string;
  place?: string | null;
  waitUntil: (promise: Promise<unknown>) => void;
}) {
  const appUrl = env.APP_URL ?? origin;
  const twoFactorKey = twoFactorKeyOf(env);
  const mailer = createMailer(env, db);
  // A failed e-mail never fails the sign-up that caused it: the user can ask for another.
  const sendSafely = async (message: Parameters<typeof mailer.send>[0]) => {
    try {
      await mailer.send(message);
    } catch (error) {
      // The request's id is added by `log`; not the address (personal data), nor the failed query's
      // parameters (the link's token): errorSummary keeps the first line.
      log("error", "mail not sent", { subject: message.subject, error: errorSummary(error) });
    }
  };

  return betterAuth({
    basePath: AUTH_BASE_PATH,
    baseURL: appUrl,
    secret: env.SESSION_SECRET,
    database: drizzleAdapter(db, { provider: "sqlite", schema, usePlural: true }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      // Also makes sign-up answer a taken address exactly like a new one.
      requireEmailVerification: true,
      password: { hash: hashPassword, verify: verifyPassword },
      onExistingUserSignUp: async ({ user }) =>
        sendSafely(existingAccountEmail({ email: user.email, name: user.name, signInUrl: `${appUrl}/auth` })),
      // The link opens our own page (the library's GET /reset-password/:token is not served); the
      // token travels in the query and is checked, and consumed, only by the page's POST.
      resetPasswordTokenExpiresIn: PASSWORD_RESET_SECONDS,
      sendResetPassword: async ({ user, token }) =>
        sendSafely(
          passwordResetEmail({
            email: user.email,
            name: user.name,
            resetUrl: `${appUrl}${RESET_PASSWORD_PATH}?token=${encodeURIComponent(token)}`,
          }),
        ),
      // Whoever knew the old password is out: every session of the account ends.
      revokeSessionsOnPasswordReset: true,
      onPasswordReset: async ({ user }) =>
        sendSafely(
          passwordChangedEmail({ email: user.email, name: user.name, forgotUrl: `${appUrl}${FORGOT_PASSWORD_PATH}` }),
        ),
    },
    emailVerification: {
      sendOnSignUp: false,
      sendOnSignIn: true,
      autoSignInAfterVerification: true,
      expiresIn: ONE_DAY_IN_SECONDS,
      sendVerificationEmail: async ({ user, token, url }) => {
        const setup = await findPendingOrganizationSetup(db, user.id);
        // Where the person was going when they signed up (an invite link): the confirmation page
        // takes them there instead of the dashboard. Same-site paths only.
        const next = safeRedirectPath(new URL(url).searchParams.get("callbackURL"), "/");
        const redirectTo = next === "/" ? "" : `&redirectTo=${encodeURIComponent(next)}`;
        await sendSafely(
          verificationEmail({
            email: user.email,
            name: user.name,
            confirmationUrl: `${appUrl}/auth/confirm?token=${encodeURIComponent(token)}${redirectTo}`,
            isOrgSignup: Boolean(setup),
            organizationName: setup?.organizationName,
          }),
        );
      },
    },
    session: {
      // No "fresh session" rule: what the library guards with it (adding a passkey, turning off
      // two-factor) the app's own forms guard by asking for the password (docs/decisions/061).
      freshAge: 0,
      expiresIn: SESSION_IDLE_SECONDS,
      updateAge: SESSION_REFRESH_SECONDS,
      additionalFields: {
        place: { type: "string", required: false, input: false },
        // How the session was signed in, and the strong factor it used (decision 089).
        signInMethod: { type: "string", required: false, input: false },
        strongFactor: { type: "string", required: false, input: false },
      },
    },
    databaseHooks: {
      session: {
        create: {
          before: async (session, hook) => ({ data: { ...session, place, ...sessionRecordOf(session, hook) } }),
        },
        // A refresh (the expiry moves on): the place of the latest request, beside its "last seen".
        update: {
          before: async (session) => (place && "expiresAt" in session ? { data: { ...session, place } } : undefined),
        },
      },
    },
    // Two-factor sign-in (docs/decisions/060). None of its endpoints is served over HTTP
    // (workers/routes/auth.ts): the product's forms call them as auth.api.* with their own limits.
    plugins: [
      twoFactor({
        issuer: PRODUCT_NAME,
        backupCodeOptions: {
          amount: RECOVERY_CODE_COUNT,
          customBackupCodesGenerate: generateRecoveryCodes,
          storeBackupCodes: recoveryCodeStore(twoFactorKey),
        },
      }),
      // The key the twoFactor plugin encrypts the authenticator's secret with (decision 098).
      twoFactorSecrets(twoFactorKey),
      // Passkeys (docs/decisions/061). Only the two "options" endpoints are served over HTTP
      // through the app's own routes; verifying, naming and removing go through the forms.
      passkey({
        rpID: new URL(appUrl).hostname,
        rpName: PRODUCT_NAME,
        origin: appUrl,
        // Discoverable, so that signing in needs no e-mail address first.
        authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
        advanced: { webAuthnChallengeCookie: "passkey_challenge" },
        // A passkey sign-in counts as two factors (the device, and the PIN, fingerprint or face
        // that unlocked it), so a passkey that did not verify the person is refused, both when it is
        // added and at every sign-in.
        registration: {
          afterVerification: async ({ verification }) => {
            if (!verification.registrationInfo?.userVerified) throw passkeyWithoutUserVerification();
          },
        },
        authentication: {
          afterVerification: async ({ verification }) => {
            if (!verification.authenticationInfo.userVerified) throw passkeyWithoutUserVerification();
          },
        },
      }),
    ],
    // Limits are enforced by app/utils/rate-limit.server.ts for the HTTP API and Remix actions alike.
    rateLimit: { enabled: false },
    advanced: {
      backgroundTasks: { handler: waitUntil },
      database: { generateId: () => crypto.randomUUID() },
      cookiePrefix: AUTH_COOKIE_PREFIX,
      useSecureCookies: appUrl.startsWith("https://"),
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
    },
    telemetry: { enabled: false },
  });
}

export type Auth = ReturnType<typeof createAuth>;
export type SessionUser = NonNullable<Awaited<ReturnType<Auth["api"]["getSession"]>>>["user"];
export type SessionData = NonNullable<Awaited<ReturnType<Auth["api"]["getSession"]>>>;
