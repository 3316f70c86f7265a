import { securityEvent } from "#app/utils/log.server.ts";
import { spendTotpStep } from "#db/queries/two-factor.ts";
import type { ServiceContext } from "./context.server.ts";
import { endOtherSessions } from "./sessions.server.ts";

// Two-factor sign-in's writes of the app's own (docs/decisions/060); the auth library writes the rest.

/**
 * Marks a code's time step as used, so that neither it nor an older code works again (ASVS
 * 2.8.4). False when it already was: a replay, or the same code sent twice at once.
 */
export async function spendTotpCode(context: ServiceContext, { userId, step }: { userId: string; step: number }) {
  const spent = await spendTotpStep(context.db, { userId, step });
  if (!spent) {
    securityEvent("auth.failed", { reason: "two-factor code used again", userId, requestId: context.requestId });
  }
  return spent;
}

/** Two-factor was just turned on: every other session of the person ends, its sockets closing. */
export function endSessionsOnTwoFactor(
  context: ServiceContext,
  { userId, keepSessionId }: { userId: string; keepSessionId: string },
) {
  return endOtherSessions(context, { userId, keepSessionId });
}
