import type { Context, MiddlewareHandler } from "hono";
import { securityEvent } from "#app/utils/log.server.ts";
import { hasSessionCookie, isSessionCookieLine } from "#app/utils/session.server.ts";
import { WALLET_EXCHANGE_PATH } from "../routes/wallet-exchange.ts";
import { isOpenid4vciPost } from "../routes/openid4vci.ts";
import type { WorkerEnv } from "../types.ts";
import { setResponseHeaders } from "./response-headers.ts";

/**
 * Whether an Origin header names this app: the origin the request was sent to, or the public
 * one (APP_URL) when the Worker is reached under another name. The CSRF check of mutations and
 * the notification socket's upgrade both ask this.
 */
export function isOwnOrigin(c: Context<WorkerEnv>, origin: string) {
  return origin === new URL(c.req.url).origin || (!!c.env.APP_URL && origin === new URL(c.env.APP_URL).origin);
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** Methods that only read: no CSRF check, and (anonymous) reads may go to any D1 replica. */
export const isSafeMethod = (method: string) => SAFE_METHODS.has(method);

/**
 * Paths that take cross-site POSTs by design and authenticate them another way: Stripe's webhook
 * (its signature), a wallet's answer to a one-time exchange (its DIDAuth over the exchange's
 * challenge; no cookie is read there), a wallet's OpenID4VCI token, nonce and credential requests
 * (the pre-authorised code, the access token and the proof of possession; no cookie either).
 */
const isCrossSiteExempt = (pathname: string) =>
  pathname === "/api/stripe/webhook" || WALLET_EXCHANGE_PATH.test(pathname) || isOpenid4vciPost(pathname);

// Refuses any mutation a browser sends on behalf of another site: a foreign Origin, or a
// Sec-Fetch-Site of cross-site. Same-site requests and non-browser callers (no such headers) pass.
export const sameOriginMutations: MiddlewareHandler<WorkerEnv> = async (c, next) => {
  const url = new URL(c.req.url);
  if (isSafeMethod(c.req.method) || isCrossSiteExempt(url.pathname)) return next();

  const origin = c.req.header("Origin");
  const foreignOrigin = origin !== undefined && !isOwnOrigin(c, origin);
  if (foreignOrigin || c.req.header("Sec-Fetch-Site") === "cross-site") {
    securityEvent("csrf.refused", {
      reason: foreignOrigin ? "foreign origin" : "cross-site fetch",
      origin: origin ?? null,
      route: `${c.req.method} ${url.pathname}`,
      requestId: c.get("requestId"),
    });
    return c.text("Forbidden: cross-site request", 403);
  }
  return next();
};

function createNonce() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

export function contentSecurityPolicy(nonce: string) {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    // Radix positions popovers through style attributes rendered on the server.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "media-src 'self' blob: https:",
    "font-src 'self'",
    "connect-src 'self'",
    "frame-src 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join("; ");
}

const BASELINE_HEADERS = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
};

// Baseline headers for every response, and a per-request nonce CSP for every HTML page.
export const securityHeaders: MiddlewareHandler<WorkerEnv> = async (c, next) => {
  const nonce = createNonce();
  c.set("nonce", nonce);
  await next();

  const headers: Record<string, string> = { ...BASELINE_HEADERS };
  if (new URL(c.req.url).protocol === "https:")
    headers["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains";
  if (c.res.headers.get("Content-Type")?.startsWith("text/html"))
    headers["Content-Security-Policy"] = contentSecurityPolicy(nonce);
  // Whatever is answered to a signed-in browser (pages, their data requests, the auth API) is
  // that person's: no shared cache keeps it and no browser stores it for the Back button after
  // sign-out. Media is public by unguessable key and keeps its own long caching.
  const signedIn = hasSessionCookie(c.req.raw) || c.res.headers.getSetCookie().some(isSessionCookieLine);
  if (signedIn && !new URL(c.req.url).pathname.startsWith("/media/")) headers["Cache-Control"] = "private, no-store";
  setResponseHeaders(c, headers);
};
