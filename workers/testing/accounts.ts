import { AUTH_COOKIE_PREFIX } from "#app/utils/auth.server.ts";
import { hashPassword } from "#db/password.server.ts";
import { organizationNameKey } from "#db/queries/name-key.ts";
import { newInviteCode } from "#db/schema.ts";

// A confirmed, signed-in account written straight into D1: the rows that signing up through the
// form and opening the confirmation link leave behind (users, accounts, profiles; for an
// organisation account also its organisation, the admin role and the founder's membership; see
// sign-up.server.ts and completeSignUp), and a session with the cookie better-auth would set.
// Going through the forms costs an scrypt hash per account, a mail and several requests; the
// tests about signing up, confirming, signing in and recovering an account still do. Used by the
// Workers tests (tests/workers/account-factory.ts) and, through the test entry's
// POST /__test/accounts (workers/testing/account-route.ts), by the Playwright suite.

/** A fresh session ends after 7 days unused (decision 058). */
export const SEVEN_DAYS_MS = 7 * 24 * 60 * 60 * 1000;

/** One scrypt hash per password per isolate: every account made here shares it. */
const hashes = new Map<string, Promise<string>>();
const hashOf = (password: string) => {
  let hash = hashes.get(password);
  if (!hash) hashes.set(password, (hash = hashPassword(password)));
  return hash;
};

/**
 * The session token as better-auth signs it in its cookie (better-call's signed cookie): the
 * token, a dot, and the base64 HMAC-SHA256 of the token under the auth secret.
 */
async function signedToken(secret: string, token: string) {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const signature = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(token));
  return `${token}.${btoa(String.fromCharCode(...new Uint8Array(signature)))}`;
}

/** The `name=value` pair of the session cookie for this token. */
export const sessionCookie = async (secret: string, token: string) =>
  `${AUTH_COOKIE_PREFIX}.session_token=${encodeURIComponent(await signedToken(secret, token))}`;

export type AccountFields = { name: string; email: string; password: string; organizationName?: string };

/** Writes a confirmed account (an organisation account when `organizationName` is given) with a live session. */
export async function writeConfirmedAccount(
  db: D1Database,
  secret: string,
  { name, email, password, organizationName }: AccountFields,
) {
  const now = Date.now();
  const userId = crypto.randomUUID();
  const token = crypto.randomUUID().replaceAll("-", "");
  const organizationId = organizationName ? crypto.randomUUID() : null;
  const statements = [
    db
      .prepare("insert into users (id, name, email, email_verified, created_at, updated_at) values (?, ?, ?, 1, ?, ?)")
      .bind(userId, name, email.toLowerCase(), now, now),
    db
      .prepare(
        "insert into accounts (id, account_id, provider_id, user_id, password, created_at, updated_at) values (?, ?, 'credential', ?, ?, ?, ?)",
      )
      .bind(crypto.randomUUID(), userId, userId, await hashOf(password), now, now),
    db
      .prepare(
        "insert into sessions (id, token, user_id, expires_at, ip_address, user_agent, created_at, updated_at) values (?, ?, ?, ?, '', '', ?, ?)",
      )
      .bind(crypto.randomUUID(), token, userId, now + SEVEN_DAYS_MS, now, now),
  ];
  if (organizationId) {
    statements.push(
      db
        .prepare(
          "insert into organizations (id, name, name_key, description, invite_code, created_at) values (?, ?, ?, null, ?, ?)",
        )
        .bind(organizationId, organizationName, organizationNameKey(organizationName!), newInviteCode(), now),
      db
        .prepare(
          "insert into profiles (id, full_name, user_type, is_public, active_organization_id, created_at, updated_at) values (?, ?, 'organization', 1, ?, ?, ?)",
        )
        .bind(userId, name, organizationId, now, now),
      db
        .prepare(
          "insert into organization_roles (id, user_id, organization_id, role, created_at) values (?, ?, ?, 'admin', ?)",
        )
        .bind(crypto.randomUUID(), userId, organizationId, now),
      db
        .prepare(
          "insert into organization_members (id, user_id, organization_id, status, requested_at, approved_at, subscription_status) values (?, ?, ?, 'approved', ?, ?, 'inactive')",
        )
        .bind(crypto.randomUUID(), userId, organizationId, now, now),
    );
  } else {
    statements.push(
      db
        .prepare(
          "insert into profiles (id, full_name, user_type, is_public, created_at, updated_at) values (?, ?, 'individual', 1, ?, ?)",
        )
        .bind(userId, name, now, now),
    );
  }
  await db.batch(statements);
  return { id: userId, organizationId, token, cookie: await sessionCookie(secret, token) };
}
