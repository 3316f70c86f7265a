import {
  completeSignUp,
  deleteSessionByToken,
  deleteUnconfirmedAccount,
  findPasswordHash,
  findUnconfirmedSignUp,
  markEmailVerified,
  recordSignUp,
} from "#db/queries/accounts.ts";
import { verifyPassword } from "#db/password.server.ts";
import type { ServiceContext } from "./context.server.ts";

// The account's own rows around the auth library's: what a sign-up records beside the account it
// creates, and what confirming the address completes. The library writes its users, accounts and
// sessions itself; these are the product's writes of that journey.

/**
 * The newest sign-up for an unconfirmed address is the only one (pre-account takeover), unless it
 * is the same sign-up sent again (a double click, a retry after a lost answer: the same password,
 * name and account type, its profile written): that account stands, and its id is returned, so a
 * resend can never delete the account its first send was told about. Only the address's owner or
 * whoever chose that password can match it; anyone else's sign-up replaces the account.
 */
export async function replaceUnconfirmedAccount(
  context: ServiceContext,
  signUp: { email: string; password: string; name: string; userType: string },
): Promise<string | null> {
  const earlier = await findUnconfirmedSignUp(context.db, signUp.email);
  if (!earlier) return null;
  const same =
    earlier.name === signUp.name &&
    earlier.userType === signUp.userType &&
    (await isAccountPassword(context, earlier.id, signUp.password));
  if (same) return earlier.id;
  await deleteUnconfirmedAccount(context.db, signUp.email);
  return null;
}

/** The profile of a new account, and for an organisation account the organisation it will create when confirmed. */
export async function recordNewAccount(context: ServiceContext, input: Parameters<typeof recordSignUp>[1]) {
  await recordSignUp(context.db, input);
}

/** The address is confirmed: an organisation account's organisation is created now. Says whether one was. */
export async function confirmAccount(context: ServiceContext, user: { id: string; name: string }) {
  return completeSignUp(context.db, user);
}

/** A session the auth library started for a browser that must not be signed in (a link opened elsewhere). */
export async function discardSession(context: ServiceContext, token: string) {
  await deleteSessionByToken(context.db, token);
}

/** Setting a password from a reset link proves the address, as the confirmation link would. */
export async function confirmAddressByReset(context: ServiceContext, userId: string) {
  await markEmailVerified(context.db, userId);
}

/**
 * Whether `password` is the account's: a confirmation link opened in another browser than the one
 * that signed up confirms only for someone who knows it (decision 058).
 */
export async function isAccountPassword(context: Pick<ServiceContext, "db">, userId: string, password: string) {
  const hash = await findPasswordHash(context.db, userId);
  return hash !== null && (await verifyPassword({ hash, password }));
}
