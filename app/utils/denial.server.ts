import type { AppLoadContext } from "@remix-run/cloudflare";
import { securityEvent } from "./log.server.ts";

/**
 * The one way a guard refuses a signed-in caller: logs an `authz.denied` event (who, why, on
 * what) and gives the response to throw. Every shared guard and route refusal goes through here,
 * so no denial goes unrecorded.
 */
export function forbidden(
  context: Pick<AppLoadContext, "requestId">,
  reason: string,
  fields: { userId?: string | null; [key: string]: unknown } = {},
  body = "Forbidden",
) {
  securityEvent("authz.denied", { reason, status: 403, requestId: context.requestId, ...fields });
  return new Response(body, { status: 403 });
}
