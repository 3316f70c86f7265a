import type { AppLoadContext } from "@remix-run/cloudflare";
import { Refusal } from "#app/utils/domain-errors.server.ts";
import { pathOf, securityEvent } from "#app/utils/log.server.ts";
import { consumeRateLimit, RATE_LIMIT_MESSAGE, type RateLimitedAction } from "#app/utils/rate-limit.server.ts";

/**
 * What every form of /auth does once its fields are valid: counts the attempt against its rate
 * limit (the 11th in a minute is refused, 429).
 */
export async function limitAttempts(request: Request, context: AppLoadContext, limit: RateLimitedAction) {
  if (await consumeRateLimit(context.db, request, limit)) return;
  securityEvent("auth.failed", {
    reason: "rate limited",
    action: limit,
    route: pathOf(request),
    requestId: context.requestId,
  });
  throw new Refusal({ title: "Too many attempts", description: RATE_LIMIT_MESSAGE, variant: "destructive" }, 429);
}
