import type { AppLoadContext } from "@remix-run/cloudflare";
import { Refusal } from "#app/utils/domain-errors.server.ts";
import { emailFingerprint, pathOf, securityEvent } from "#app/utils/log.server.ts";
import {
  ADDRESS_LIMIT_MESSAGE,
  consumeRateLimit,
  consumeSubjectRateLimit,
  RATE_LIMIT_MESSAGE,
  refundAttempt,
  type RateLimitedAction,
} from "#app/utils/rate-limit.server.ts";

/**
 * What every form of /auth does once its fields are valid: counts the attempt against its rate
 * limit per network (an IPv6 client by its /64); one over the limit is refused, 429.
 */
export async function limitAttempts(request: Request, context: AppLoadContext, limit: RateLimitedAction) {
  if (await consumeRateLimit(context.db, request, limit)) return;
  throw tooMany(request, context, limit, RATE_LIMIT_MESSAGE);
}

/**
 * A form that mails an address (sign-up, resend) also counts per address, from whatever
 * network: 3 confirmation mails an hour. Counted and answered alike whether or not the address
 * has an account.
 */
export async function limitMailsTo(request: Request, context: AppLoadContext, email: string) {
  const address = await emailFingerprint(email);
  if (await consumeSubjectRateLimit(context.db, "confirmation-mail", address)) return;
  throw tooMany(request, context, "confirmation-mail", ADDRESS_LIMIT_MESSAGE, address);
}

/** Gives back the address's count of a form that failed before its mail was sent. */
export async function refundMailTo(context: AppLoadContext, email: string) {
  await refundAttempt(context.db, "confirmation-mail", await emailFingerprint(email));
}

/** A throttled attempt: logged, and refused with the limit's message. */
export function tooMany(
  request: Request,
  context: AppLoadContext,
  action: string,
  description: string,
  email?: string,
) {
  securityEvent("auth.failed", {
    reason: "rate limited",
    action,
    route: pathOf(request),
    requestId: context.requestId,
    ...(email ? { email } : {}),
  });
  return new Refusal({ title: "Too many attempts", description, variant: "destructive" }, 429);
}
