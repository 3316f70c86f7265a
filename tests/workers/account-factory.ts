import { env } from "cloudflare:test";
import {
  type AccountFields,
  SEVEN_DAYS_MS,
  sessionCookie,
  writeConfirmedAccount as write,
} from "#workers/testing/accounts.ts";

// The Workers tests' confirmed accounts: written straight into D1 as sign-up and confirmation
// leave them (workers/testing/accounts.ts, shared with the Playwright suite's test route).

/** Writes a confirmed account (an organisation account when `organizationName` is given) with a live session. */
export async function writeConfirmedAccount(fields: AccountFields) {
  const { id, cookie } = await write(env.DB, env.SESSION_SECRET, fields);
  return { id, cookie };
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
  return { id, token, cookie: await sessionCookie(env.SESSION_SECRET, token) };
}
