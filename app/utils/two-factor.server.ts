import type { AppLoadContext } from "@remix-run/cloudflare";
import type { Db } from "#db/client.ts";
import type { Auth } from "./auth.server.ts";
import { base32 } from "@better-auth/utils/base32";
import { createOTP } from "@better-auth/utils/otp";
import { symmetricDecrypt } from "better-auth/crypto";
import { parseSigned } from "hono/utils/cookie";
import { findPendingSignIn, readTwoFactor, type TwoFactorRow } from "#db/queries/two-factor.ts";
import { PRODUCT_NAME } from "./constants.ts";
import { qrCodeOf } from "./qr-code.server.ts";

// Two-factor sign-in (docs/decisions/060): what the app reads of a person's authenticator. The
// auth library (better-auth's twoFactor plugin) verifies codes and keeps the rows; this module
// decrypts a setup's secret for Settings, finds the step a code belongs to (so none works twice)
// and finds whose pending sign-in a browser holds.

/** RFC 6238 as the library runs it: 30-second steps, 6 digits, one step either side accepted. */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
const WINDOW = 1;

/** What reading an authenticator needs: the database and the auth library (its secret). */
type AuthenticatorReader = { db: Db; auth: Auth };

const keyOf = async (context: AuthenticatorReader) => (await context.auth.$context).secretConfig;

/** Two-factor as Settings shows it: on or off, and a setup waiting for its first code (its secret decrypted). */
export async function readAuthenticator(context: AuthenticatorReader, userId: string) {
  return authenticatorOf(context, await readTwoFactor(context.db, userId));
}

/** The same, from a row read already (in a page's batch: `twoFactorPart`). */
export async function authenticatorOf(context: AuthenticatorReader, row: TwoFactorRow) {
  if (!row?.secret) return { enabled: Boolean(row?.enabled), verified: false, secret: null, lastTotpStep: null };
  const secret = await symmetricDecrypt({ key: await keyOf(context), data: row.secret });
  return { enabled: row.enabled, verified: Boolean(row.verified), secret, lastTotpStep: row.lastTotpStep };
}

/**
 * The time step a code belongs to (within the window the library accepts), or null when it
 * matches none. A code matching two steps (one in a million) counts as the later one.
 */
export async function stepOfCode(secret: string, code: string, now = Date.now()) {
  const current = Math.floor(now / 1000 / TOTP_PERIOD_SECONDS);
  const otp = createOTP(secret, { digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS });
  let matched: number | null = null;
  for (let step = current - WINDOW; step <= current + WINDOW; step++) {
    if ((await otp.hotp(step)) === code) matched = step;
  }
  return matched;
}

/** What an authenticator app needs to be set up: the otpauth URI (as a QR code) and the key to type. */
export function authenticatorSetup(secret: string, email: string) {
  const uri = createOTP(secret, { digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS }).url(PRODUCT_NAME, email);
  const key = base32.encode(secret, { padding: false });
  return { uri, key: key.match(/.{1,4}/g)!.join(" "), qr: qrCodeOf(uri) };
}

/**
 * Whose second sign-in step this browser holds: the user id behind its signed `two_factor`
 * cookie while the challenge lives (10 minutes, at most 5 codes), else null.
 */
export async function pendingSignInUserId(context: AppLoadContext, request: Request) {
  const header = request.headers.get("Cookie");
  if (!header) return null;
  const auth = await context.auth.$context;
  const name = auth.createAuthCookie("two_factor").name;
  const challenge = (await parseSigned(header, auth.secret, name))[name];
  if (typeof challenge !== "string" || !challenge) return null;
  return findPendingSignIn(context.db, challenge);
}
