import type { MiddlewareHandler } from "hono";
import { AUTH_BASE_PATH } from "#app/utils/auth.server.ts";
import { readBoundedBody } from "#app/utils/bounded-form.server.ts";
import { STRIPE_WEBHOOK_PATH } from "../routes/stripe-webhook.ts";
import type { WorkerEnv } from "../types.ts";

// What anyone may post without an account (the auth forms, /verify, the Stripe webhook before its
// signature is checked) is read whole before anything else looks at it, up to a cap; past the
// cap the answer is 413 whatever Content-Length said, so no body can make a request expensive.

/**
 * The auth forms: an address, a password, a name, a token, a passkey's answer. Room enough that a
 * field far over its own limit (10,000 characters of emoji, percent-encoded) still gets the form's
 * message rather than a bare 413.
 */
export const AUTH_FORM_MAX_BYTES = 256 * 1024;
/**
 * /verify: its page refuses a credential over 256 KB with a message in the page
 * (app/routes/verify.tsx); this cap, above that, only bounds what it reads to say so.
 */
export const VERIFY_FORM_MAX_BYTES = 1024 * 1024;
/** A Stripe event: tens of kilobytes in practice. */
export const STRIPE_EVENT_MAX_BYTES = 512 * 1024;
/** /preferences: a cookie choice or the sidebar's state, a few bytes. */
export const PREFERENCES_FORM_MAX_BYTES = 16 * 1024;

/** Each capped path, as `routedPath` writes it, and its cap. */
const CAPS: [matches: (path: string) => boolean, maxBytes: number][] = [
  [(path) => path === "/auth" || path.startsWith("/auth/"), AUTH_FORM_MAX_BYTES],
  [(path) => path.startsWith(`${AUTH_BASE_PATH}/`), AUTH_FORM_MAX_BYTES],
  [(path) => path === "/verify", VERIFY_FORM_MAX_BYTES],
  [(path) => path === STRIPE_WEBHOOK_PATH, STRIPE_EVENT_MAX_BYTES],
  [(path) => path === "/preferences", PREFERENCES_FORM_MAX_BYTES],
];

/**
 * The path as the routers match it: Remix finds `/VERIFY`, `/verify/` and `/%76erify` to be
 * `/verify` (any case, after decoding, trailing slashes ignored), so a cap keyed on the path as
 * written would let those through uncapped (issue 43, decision 088).
 */
function routedPath(url: string) {
  const { pathname } = new URL(url);
  let decoded = pathname;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    // Not valid percent-encoding: no router decodes it either.
  }
  return decoded
    .toLowerCase()
    .replace(/\/{2,}/g, "/")
    .replace(/(.)\/$/, "$1");
}

/** Reads the body of a capped path up to its cap and hands it on; past it, 413. */
export const bodyCaps: MiddlewareHandler<WorkerEnv> = async (c, next) => {
  if (!c.req.raw.body) return next();
  const path = routedPath(c.req.url);
  const maxBytes = CAPS.find(([matches]) => matches(path))?.[1];
  if (maxBytes === undefined) return next();
  const body = await readBoundedBody(c.req.raw, maxBytes);
  if (!body) return c.text("Payload Too Large", 413);
  c.req.raw = new Request(c.req.raw, { body });
  return next();
};
