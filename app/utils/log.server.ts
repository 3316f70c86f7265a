import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The one logger: a structured JSON line per event, for the Worker middleware and the app alike.
 * Fields are values we chose to log; never pass a request body, header or token here.
 */
export type LogLevel = "info" | "warn" | "error";

/**
 * The id of the request being served (requestLog runs every request in it), so that every line
 * logged while serving it, including the side effects it left running (a mail, a push, a purge),
 * names it (issue 34). One store per isolate (a global): the Worker's middleware and the Remix
 * server build each bundle this module.
 */
const requestIds: AsyncLocalStorage<string> = ((globalThis as unknown as Record<symbol, AsyncLocalStorage<string>>)[
  Symbol.for("career-passport.request-id")
] ??= new AsyncLocalStorage());
export const withRequestId = <T>(requestId: string, work: () => T) => requestIds.run(requestId, work);

export function log(level: LogLevel, message: string, fields: Record<string, unknown> = {}) {
  const requestId = requestIds.getStore();
  const line = JSON.stringify({
    level,
    message,
    time: new Date().toISOString(),
    ...(requestId && { requestId }),
    ...fields,
  });
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}

/**
 * What a failure may write to the log: the database's own message, or the first line of the
 * error's. Never the rest: a failed query's message goes on to list its parameters, which are
 * what the person typed (and, for a password change, the new hash).
 */
export function errorSummary(error: unknown) {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return String(cause).split("\n")[0]!.slice(0, 500);
}

/**
 * The security events the issue asks for, each one a named structured event:
 * - `auth.failed`: a sign-in, a confirmation or a password change that did not authenticate;
 * - `authz.denied`: a shared guard refused a caller (signed out, archived, not the owner, not an admin);
 * - `csrf.refused`: a mutation (or the WebSocket upgrade) sent on behalf of another site;
 * - `webhook.refused`: a Stripe webhook without a valid signature;
 * - `session.ended`: a person ended one or more of their own sessions from Settings;
 * - `factor.changed`: a way to sign in was added to or removed from an account (a passkey);
 * - `auth.step-up`: a session signed in with the password alone confirmed a strong factor (decision 089);
 * - `wallet.refused`: a wallet exchange refused a presentation or a spent, expired or revoked exchange.
 * They carry the reason, the route and ids of the rows involved; never a secret, token or password.
 */
export type SecurityEvent =
  | "auth.failed"
  | "authz.denied"
  | "csrf.refused"
  | "webhook.refused"
  | "session.ended"
  | "factor.changed"
  | "auth.step-up"
  | "wallet.refused"
  | "openid4vci.refused";

export function securityEvent(event: SecurityEvent, fields: Record<string, unknown> & { reason: string }) {
  log("warn", event, { event, ...fields });
}

/** Where a request went, without its query (which may carry a token). */
export function pathOf(request: Request) {
  return `${request.method} ${new URL(request.url).pathname}`;
}

/**
 * A short, stable pseudonym for an e-mail address, so repeated failures for one account can be
 * correlated without writing the address itself into the logs.
 */
export async function emailFingerprint(email: string) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(email.trim().toLowerCase()));
  return [...new Uint8Array(digest).slice(0, 8)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}
