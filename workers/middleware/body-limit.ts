import type { MiddlewareHandler } from "hono";
import { readBoundedBody } from "#app/utils/bounded-form.server.ts";
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

/** Reads the body up to `maxBytes` and hands it on; past it, 413. */
export const bodyCap =
  (maxBytes: number): MiddlewareHandler<WorkerEnv> =>
  async (c, next) => {
    if (!c.req.raw.body) return next();
    const body = await readBoundedBody(c.req.raw, maxBytes);
    if (!body) return c.text("Payload Too Large", 413);
    c.req.raw = new Request(c.req.raw, { body });
    return next();
  };
