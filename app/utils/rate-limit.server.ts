import { eq, sql } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { rateLimits } from "#db/schema.ts";
import { errorSummary, log } from "./log.server.ts";

// Limits kept in D1, so they hold across isolates and restarts. Fixed windows per key.
// Limits on what anyone may ask count per network (an IPv6 client by its /64, which one
// subscriber usually holds whole: `consumeRateLimit`); where an address is named, also per
// address, so that neither one client nor many can flood a mailbox (docs/decisions/057).
export const RATE_LIMITS = {
  "sign-in": { max: 10, windowSeconds: 60 },
  "sign-up": { max: 5, windowSeconds: 60 },
  // A passkey sign-in's challenge, asked for as the sign-in page opens (for the browser's autofill)
  // and again at 'Sign in with a passkey': each one is a row, kept 5 minutes.
  "passkey-options": { max: 60, windowSeconds: 60 },
  // The second sign-in step's codes, per network; each pending sign-in also ends after 5 wrong
  // codes, and 10 in a row lock an account's second step for 15 minutes (the auth library's).
  "two-factor": { max: 10, windowSeconds: 60 },
  "resend-verification": { max: 3, windowSeconds: 60 },
  // Per address, sign-up and resend together: each may send a confirmation (or "you already
  // have an account") mail.
  "confirmation-mail": { max: 3, windowSeconds: 60 * 60 },
  // A signed-in person re-entering their password (change, permanent deletion): per network and
  // per account, so a session left open does not allow guessing the password at speed.
  "change-password": { max: 5, windowSeconds: 60 },
  "change-password-account": { max: 10, windowSeconds: 15 * 60 },
  "forgot-password": { max: 5, windowSeconds: 15 * 60 },
  "forgot-password-address": { max: 3, windowSeconds: 60 * 60 },
  // Each attempt hashes a password; a token cannot be guessed in any number of tries.
  "reset-password": { max: 10, windowSeconds: 15 * 60 },
  // Per person: each added or resent other address mails a link (decision 068); each address also
  // counts under "confirmation-mail", so many accounts cannot flood one mailbox either.
  "other-address-mail": { max: 10, windowSeconds: 60 * 60 },
  // Per person, not per address: an export reads every row and file of the account.
  "data-export": { max: 3, windowSeconds: 3600 },
  // Per person: reading a 500-entry history costs ~200 ms of Worker CPU (issue 32, decision 067).
  "history-import": { max: 20, windowSeconds: 60 },
  // Checking a pasted credential costs two canonicalisations (~20 ms CPU) and may fetch.
  "verify-credential": { max: 20, windowSeconds: 60 },
  // Per person: checking or adding an import verifies it (a canonicalisation or two) and may read
  // up to six outside documents (decision 069).
  "import-credential": { max: 20, windowSeconds: 60 },
  // Per person: each check of a domain is a DNS-over-HTTPS request to the resolver.
  "verify-domain": { max: 10, windowSeconds: 60 },
  // A wallet answering a one-time exchange (decision 064): one post per exchange, each checked
  // (a canonicalisation) and signed (another): ~20 ms CPU. Per network, as phones share one.
  "wallet-exchange": { max: 30, windowSeconds: 60 },
  // Anyone may download a credential (issue 43), per network: a read, and a holder's copy served
  // as stored (signed at most once, for a row from before stored copies or a retired key).
  "credential-download": { max: 60, windowSeconds: 60 },
  // OpenID4VCI (decision 065), per network. An offer and a nonce are one read or write each.
  "openid4vci-offer": { max: 60, windowSeconds: 60 },
  "openid4vci-nonce": { max: 60, windowSeconds: 60 },
  // Each try at a 6-digit transaction code is counted here, and an offer takes 5 wrong ones.
  "openid4vci-token": { max: 20, windowSeconds: 60 },
  // A proof checked and a credential signed: ~20 ms CPU, as the wallet exchange.
  "openid4vci-credential": { max: 30, windowSeconds: 60 },
  // Per person, each request that stores a file (avatar, intro video, achievement media; decision
  // 074): at most 180 an hour, each of at most 60 MB (a video with its cover and thumbnail); a
  // person's own files count against their storage quota too.
  upload: { max: 30, windowSeconds: 10 * 60 },
  // Per person: each endorsement signs a credential (~10 ms CPU) and notifies someone (decision 072).
  endorse: { max: 10, windowSeconds: 60 * 60 },
} as const;
export type RateLimitedAction = keyof typeof RATE_LIMITS;

export const RATE_LIMIT_MESSAGE = "Too many attempts. Please wait a minute and try again.";
const ACCOUNT_LIMIT_MESSAGE = "Too many attempts. Please wait 15 minutes and try again.";
/** A limit per address: the same words whether or not the address has an account. */
export const ADDRESS_LIMIT_MESSAGE = "Too many requests for this email address. Please wait an hour and try again.";

export function clientIp(request: Request) {
  return request.headers.get("cf-connecting-ip") ?? request.headers.get("x-real-ip") ?? "unknown";
}

/**
 * The network a client address belongs to: an IPv4 address as it is, an IPv6 address by its
 * first 64 bits (the prefix a single subscriber is handed; rotating inside it is free).
 */
export function clientNetwork(request: Request) {
  const ip = clientIp(request);
  if (!ip.includes(":")) return ip;
  const [head = "", tail = ""] = ip.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = ip.includes("::")
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/** Counts this attempt against the caller's network; false when it is over the limit for this action. */
export function consumeRateLimit(db: Db, request: Request, action: RateLimitedAction, now = Date.now()) {
  return consume(db, action, clientNetwork(request), now);
}

/** The same, counted per signed-in user wherever they connect from. */
export function consumeUserRateLimit(db: Db, userId: string, action: RateLimitedAction, now = Date.now()) {
  return consume(db, action, userSubject(userId), now);
}

/** A signed-in user, as a subject of `countAttempt`. */
export const userSubject = (userId: string) => `user:${userId}`;

/**
 * A signed-in person re-entering their password (change, permanent deletion), counted per network
 * (`clientNetwork`) and per account: null within both limits, else the words to refuse with.
 */
export async function limitPasswordCheck(db: Db, network: string, userId: string, now = Date.now()) {
  if (!(await consume(db, "change-password", network, now))) return RATE_LIMIT_MESSAGE;
  if (!(await consumeUserRateLimit(db, userId, "change-password-account", now))) return ACCOUNT_LIMIT_MESSAGE;
  return null;
}

/** The same, counted per something else: an e-mail fingerprint. */
export function consumeSubjectRateLimit(db: Db, action: RateLimitedAction, subject: string, now = Date.now()) {
  return consume(db, action, subject, now);
}

/**
 * Counts the attempt. When the count cannot be written (D1 failing), the attempt is refused all
 * the same (fail closed: a limit that cannot count does not let guesses through) by throwing
 * `LimitUnavailable`, which the form answers with its own failure (decision 100). Logged as a
 * warning: the failure itself was logged where it happened.
 */
async function consume(db: Db, action: RateLimitedAction, subject: string, now: number) {
  try {
    const [row] = await countAttempt(db, action, subject, now);
    return withinLimit(action, row);
  } catch (error) {
    log("warn", "rate limit unavailable", { action, error: errorSummary(error) });
    throw new LimitUnavailable(action, { cause: error });
  }
}

/**
 * A limit that could not count (D1 failing): the attempt is refused all the same (fail closed),
 * and the person reads what failed, the action's own title with "nothing was saved", not a
 * "please wait" that waiting would not mend (decision 100).
 */
/** Whether the attempt is within its limit; null when the limit could not count (nothing is done). */
export async function limitOrUnavailable(counting: Promise<boolean>) {
  try {
    return await counting;
  } catch (error) {
    if (error instanceof LimitUnavailable) return null;
    throw error;
  }
}

export class LimitUnavailable extends Error {
  constructor(action: RateLimitedAction, options: { cause: unknown }) {
    super(`the ${action} limit could not count`, options);
  }
}

/**
 * The one statement that counts an attempt at `action` by `subject` (a network, an account):
 * insert the first attempt, or count this one (restarting an expired window). Returns `count`;
 * a caller that batches it with its other reads (one D1 round trip) hands the row to `withinLimit`.
 */
export function countAttempt(db: Db, action: RateLimitedAction, subject: string, now: number) {
  const windowStart = now - RATE_LIMITS[action].windowSeconds * 1000;
  const expired = sql`${rateLimits.lastRequest} < ${windowStart}`;
  return db
    .insert(rateLimits)
    .values({ key: `${action}:${subject}`, count: 1, lastRequest: now })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${expired} then 1 else ${rateLimits.count} + 1 end`,
        lastRequest: sql`case when ${expired} then ${now} else ${rateLimits.lastRequest} end`,
      },
    })
    .returning({ count: rateLimits.count });
}

/**
 * Takes back one counted attempt that turned out not to happen (a sign-up that failed before its
 * mail was sent, so the address's mail limit is not spent on nothing). Never throws: at worst the
 * attempt stays counted, as before.
 */
export async function refundAttempt(db: Db, action: RateLimitedAction, subject: string) {
  try {
    await db
      .update(rateLimits)
      .set({ count: sql`max(${rateLimits.count} - 1, 0)` })
      .where(eq(rateLimits.key, `${action}:${subject}`));
  } catch (error) {
    log("warn", "rate limit refund failed", { action, error: errorSummary(error) });
  }
}

/**
 * The same judged inside a batch's statement (after its `countAttempt`): a write made only while
 * the attempt is within the limit, with no round trip of its own (issue 43).
 */
export const withinLimitSql = (action: RateLimitedAction, subject: string) =>
  sql`coalesce((select ${rateLimits.count} from ${rateLimits} where ${rateLimits.key} = ${`${action}:${subject}`}), 0) <= ${RATE_LIMITS[action].max}`;

/** Whether the attempt `countAttempt` counted (its returned row) is within the action's limit. */
export const withinLimit = (action: RateLimitedAction, row: { count: number } | undefined) =>
  (row?.count ?? 0) <= RATE_LIMITS[action].max;

/**
 * Password sign-in per address (docs/decisions/057): 10 failures within 15 minutes pause it for
 * 15 minutes from the 10th. Counted per address whether or not it has an account, so the pause
 * tells nobody which addresses exist. One rate_limits row per address: the failures of its window
 * and, once locked, the moment of locking.
 */
export const PASSWORD_LOCKOUT = { failures: 10, seconds: 15 * 60 } as const;
const lockoutKey = (address: string) => `sign-in-failures:${address}`;

/** Whether password sign-in for this address (an e-mail fingerprint) is paused. */
export async function isPasswordSignInLocked(db: Db, address: string, now = Date.now()) {
  const { failures, seconds } = PASSWORD_LOCKOUT;
  const row = await db.get<{ locked: number }>(sql`
    select 1 as locked from rate_limits
    where key = ${lockoutKey(address)} and count >= ${failures} and last_request >= ${now - seconds * 1000}`);
  return Boolean(row);
}

/** Counts a failed password sign-in for this address: true for the one failure that locks it. */
export async function countPasswordFailure(db: Db, address: string, now = Date.now()) {
  const { failures, seconds } = PASSWORD_LOCKOUT;
  const windowStart = now - seconds * 1000;
  // As `consume`, except that the failure that locks restarts the clock: the pause lasts its full
  // 15 minutes however early in the window it began. (SET reads the row as it was.)
  const row = await db.get<{ count: number }>(sql`
    insert into rate_limits (id, key, count, last_request) values (${crypto.randomUUID()}, ${lockoutKey(address)}, 1, ${now})
    on conflict (key) do update set
      count = case when last_request < ${windowStart} then 1 else count + 1 end,
      last_request = case when last_request < ${windowStart} or count + 1 = ${failures} then ${now} else last_request end
    returning count`);
  return row?.count === failures;
}

/** The owner proved who they are (signed in, or set a password from a mailed link): failures start again. */
export async function clearPasswordFailures(db: Db, address: string) {
  await db.run(sql`delete from rate_limits where key = ${lockoutKey(address)}`);
}
