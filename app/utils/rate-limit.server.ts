import { sql } from "drizzle-orm";
import type { Db } from "#db/client.ts";

// Limits kept in D1, so they hold across isolates and restarts. Fixed windows per key.
export const RATE_LIMITS = {
  "sign-in": { max: 10, windowSeconds: 60 },
  "sign-up": { max: 5, windowSeconds: 60 },
  "resend-verification": { max: 3, windowSeconds: 60 },
  "change-password": { max: 5, windowSeconds: 60 },
  // Per person, not per address: an export reads every row and file of the account.
  "data-export": { max: 3, windowSeconds: 3600 },
} as const;
export type RateLimitedAction = keyof typeof RATE_LIMITS;

export const RATE_LIMIT_MESSAGE = "Too many attempts. Please wait a minute and try again.";

export function clientIp(request: Request) {
  return request.headers.get("cf-connecting-ip") ?? request.headers.get("x-real-ip") ?? "unknown";
}

/** Counts this attempt; false when the caller is over the limit for this action. */
export function consumeRateLimit(db: Db, request: Request, action: RateLimitedAction, now = Date.now()) {
  return consume(db, action, clientIp(request), now);
}

/** The same, counted per signed-in user wherever they connect from. */
export function consumeUserRateLimit(db: Db, userId: string, action: RateLimitedAction, now = Date.now()) {
  return consume(db, action, `user:${userId}`, now);
}

async function consume(db: Db, action: RateLimitedAction, subject: string, now: number) {
  const { max, windowSeconds } = RATE_LIMITS[action];
  const key = `${action}:${subject}`;
  const windowStart = now - windowSeconds * 1000;
  // One statement: insert the first attempt, or count this one (restarting an expired window).
  const row = await db.get<{ count: number }>(sql`
    insert into rate_limits (id, key, count, last_request) values (${crypto.randomUUID()}, ${key}, 1, ${now})
    on conflict (key) do update set
      count = case when last_request < ${windowStart} then 1 else count + 1 end,
      last_request = case when last_request < ${windowStart} then ${now} else last_request end
    returning count`);
  return (row?.count ?? 0) <= max;
}

/**
 * Paths of the auth library's HTTP API that count against the same limits. (Sign-up, resending
 * and password changes are not served over that API: see AUTH_API_ENDPOINTS in workers/app.ts.)
 */
export const RATE_LIMITED_AUTH_PATHS: Record<string, RateLimitedAction> = {
  "/api/auth/sign-in/email": "sign-in",
};
