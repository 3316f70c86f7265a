import { env } from "cloudflare:test";
import { AUTH_COOKIE_PREFIX } from "#app/utils/auth.server.ts";
import { hashPassword } from "#db/password.server.ts";
import { newInviteCode } from "#db/schema.ts";

// A confirmed, signed-in account written straight into D1: the rows that signing up through the
// form and opening the confirmation link leave behind (users, accounts, profiles; for an
// organisation account also its organisation, the admin role and the founder's membership; see
// sign-up.server.ts and completeSignUp), and a session with the cookie better-auth would set.
// Going through the forms costs an scrypt hash per account and several requests; the tests about
// signing up, confirming, signing in and recovering an account still do (helpers.ts, signUp).

/** A fresh session ends after 7 days unused (decision 058). */
const SEVEN_DAYS_MS = 7 * 24 * 60 * 60 * 1000;

/** One scrypt hash per password per isolate: every account of a test file shares it. */
const hashes = new Map<string, Promise<string>>();
const hashOf = (password: string) => {
  let hash = hashes.get(password);
  if (!hash) hashes.set(password, (hash = hashPassword(password)));
  return hash;
};

/**
 * The session cookie as better-auth signs it (better-call's signed cookie): the token, a dot, and
 * the base64 HMAC-SHA256 of the token under the auth secret, URL-encoded as a whole.
 */
async function sessionCookie(token: string) {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(env.SESSION_SECRET),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const signature = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(token));
  const encoded = btoa(String.fromCharCode(...new Uint8Array(signature)));
  return `${AUTH_COOKIE_PREFIX}.session_token=${encodeURIComponent(`${token}.${encoded}`)}`;
}

/** Writes a confirmed account (an organisation account when `organizationName` is given) with a live session. */
export async function writeConfirmedAccount({
  name,
  email,
  password,
  organizationName,
}: {
  name: string;
  email: string;
  password: string;
  organizationName?: string;
}) {
  const now = Date.now();
  const userId = crypto.randomUUID();
  const token = crypto.randomUUID().replaceAll("-", "");
  const organizationId = organizationName ? crypto.randomUUID() : null;
  const statements = [
    env.DB.prepare(
      "insert into users (id, name, email, email_verified, created_at, updated_at) values (?, ?, ?, 1, ?, ?)",
    ).bind(userId, name, email.toLowerCase(), now, now),
    env.DB.prepare(
      "insert into accounts (id, account_id, provider_id, user_id, password, created_at, updated_at) values (?, ?, 'credential', ?, ?, ?, ?)",
    ).bind(crypto.randomUUID(), userId, userId, await hashOf(password), now, now),
    env.DB.prepare(
      "insert into sessions (id, token, user_id, expires_at, ip_address, user_agent, created_at, updated_at) values (?, ?, ?, ?, '', '', ?, ?)",
    ).bind(crypto.randomUUID(), token, userId, now + SEVEN_DAYS_MS, now, now),
  ];
  if (organizationId) {
    statements.push(
      env.DB.prepare(
        "insert into organizations (id, name, description, invite_code, created_at) values (?, ?, null, ?, ?)",
      ).bind(organizationId, organizationName, newInviteCode(), now),
      env.DB.prepare(
        "insert into profiles (id, full_name, user_type, is_public, active_organization_id, created_at, updated_at) values (?, ?, 'organization', 1, ?, ?, ?)",
      ).bind(userId, name, organizationId, now, now),
      env.DB.prepare(
        "insert into organization_roles (id, user_id, organization_id, role, created_at) values (?, ?, ?, 'admin', ?)",
      ).bind(crypto.randomUUID(), userId, organizationId, now),
      env.DB.prepare(
        "insert into organization_members (id, user_id, organization_id, status, requested_at, approved_at, subscription_status) values (?, ?, ?, 'approved', ?, ?, 'inactive')",
      ).bind(crypto.randomUUID(), userId, organizationId, now, now),
    );
  } else {
    statements.push(
      env.DB.prepare(
        "insert into profiles (id, full_name, user_type, is_public, created_at, updated_at) values (?, ?, 'individual', 1, ?, ?)",
      ).bind(userId, name, now, now),
    );
  }
  await env.DB.batch(statements);
  return { id: userId, cookie: await sessionCookie(token) };
}

/**
 * Another session of an account, written straight into D1 as better-auth would leave it (times in
 * the past allowed: a session last refreshed `updatedAt`, ending 7 days after that unless given),
 * with its cookie.
 */
export async function writeSession(
  userId: string,
  {
    createdAt = Date.now(),
    updatedAt = createdAt,
    expiresAt = updatedAt + SEVEN_DAYS_MS,
    userAgent = "",
    place = null,
  }: { createdAt?: number; updatedAt?: number; expiresAt?: number; userAgent?: string; place?: string | null } = {},
) {
  const id = crypto.randomUUID();
  const token = crypto.randomUUID().replaceAll("-", "");
  await env.DB.prepare(
    "insert into sessions (id, token, user_id, expires_at, ip_address, user_agent, place, created_at, updated_at) values (?, ?, ?, ?, '', ?, ?, ?, ?)",
  )
    .bind(id, token, userId, expiresAt, userAgent, place, createdAt, updatedAt)
    .run();
  return { id, token, cookie: await sessionCookie(token) };
}
