import type { AppLoadContext } from "@remix-run/cloudflare";
import { verifyJWT } from "better-auth/crypto";
import { readSignUpCookie } from "#app/utils/cookies.server.ts";
import { findAccountByEmail } from "#db/queries/accounts.ts";

/** The address and user a confirmation token names, when it is well formed (its signature unchecked). */
function tokenSubject(token: string) {
  try {
    const payload = JSON.parse(atob(token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/")));
    return { email: String(payload.email), userId: payload.userId ? String(payload.userId) : null };
  } catch {
    return null;
  }
}

/**
 * What a confirmation link is worth here: refused (malformed; forged or expired, as the auth
 * library's own check finds; or of an account a newer sign-up replaced), or the account it
 * confirms and whether this browser must first give its password (it did not sign up, and the
 * address is not confirmed yet).
 */
export async function checkLink(context: AppLoadContext, request: Request, token: string) {
  const subject = tokenSubject(token);
  if (!subject) return { ok: false as const, reason: "malformed confirmation token", userId: null };
  if (!(await verifyJWT(token, context.env.SESSION_SECRET))) {
    return { ok: false as const, reason: "invalid or expired confirmation token", userId: subject.userId };
  }
  // A link of an account that a newer sign-up replaced names a user id that no longer exists
  // (the address now belongs to the newer sign-up, whose own link must be used).
  const user = await findAccountByEmail(context.db, subject.email);
  if (!user || (subject.userId !== null && subject.userId !== user.id)) {
    return { ok: false as const, reason: "confirmation token of a replaced account", userId: subject.userId };
  }
  const signedUpHere = (await readSignUpCookie(context.env, request)) === user.id;
  return { ok: true as const, user, signedUpHere, needsPassword: !signedUpHere && !user.emailVerified };
}
