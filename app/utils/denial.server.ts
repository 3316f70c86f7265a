import { Forbidden } from "./domain-errors.server.ts";
import { securityEvent } from "./log.server.ts";

/**
 * The one way a guard refuses a signed-in caller: logs an `authz.denied` event (who, why, on
 * what) and gives the error to throw, which the route layer answers with a 403 (`asResponse`).
 * Every shared guard, service and route refusal goes through here, so no denial goes unrecorded.
 */
export function forbidden(
  context: { requestId?: string },
  reason: string,
  fields: { userId?: string | null; [key: string]: unknown } = {},
  body = "Forbidden",
) {
  securityEvent("authz.denied", { reason, status: 403, requestId: context.requestId, ...fields });
  return new Forbidden(body);
}
