import type { AccountsContext } from "./account.server.ts";

// Accounts made with an e-mail address and a password (decision 014): the library creates them,
// mails their confirmation links and checks those links' tokens.

/**
 * Creates an account through the library. Its answer: the new user, or the library's message
 * (a taken address is answered like a new one: the library mails its owner instead).
 */
export async function createAccount(
  context: AccountsContext,
  { email, password, name, headers }: { email: string; password: string; name: string; headers: Headers },
) {
  const response = await context.auth.api.signUpEmail({ body: { email, password, name }, headers, asResponse: true });
  const body = (await response.json().catch(() => ({}))) as { message?: string; user?: { id: string; name: string } };
  return { ok: response.ok, body };
}

/**
 * Mails the address's confirmation link, if an account waits for it, after the answer: looking
 * the address up and mailing it would make a waiting account slower to answer. `callbackURL` is
 * kept in the link (where the person was going). A failed mail is logged when `logFailure`.
 */
export function mailConfirmationLink(
  context: AccountsContext,
  {
    email,
    callbackURL,
    headers,
    logFailure = false,
  }: { email: string; callbackURL?: string; headers: Headers; logFailure?: boolean },
) {
  context.cloudflare.ctx.waitUntil(
    context.auth.api
      .sendVerificationEmail({ body: { email, ...(callbackURL === undefined ? {} : { callbackURL }) }, headers })
      .catch((error) => {
        if (logFailure)
          console.error(JSON.stringify({ level: "error", message: "verification email failed", error: String(error) }));
      }),
  );
}

/** A confirmation link's token, checked by the library (the address confirmed): its answer, with the cookies. */
export function confirmEmail(context: AccountsContext, { token, headers }: { token: string; headers: Headers }) {
  return context.auth.api.verifyEmail({ query: { token }, headers, asResponse: true });
}
