import { PASSWORD_RESET_SECONDS } from "#app/utils/auth.server.ts";
import { RESET_PASSWORD_PATH } from "#app/utils/constants.ts";
import { createMailer, signInPausedEmail } from "#app/utils/email.server.ts";
import { emailFingerprint, log } from "#app/utils/log.server.ts";
import {
  clearPasswordFailures,
  countPasswordFailure,
  isPasswordSignInLocked,
  PASSWORD_LOCKOUT,
} from "#app/utils/rate-limit.server.ts";
import { createPasswordResetToken, findAccountByEmail } from "#db/queries/accounts.ts";
import type { ServiceContext } from "./context.server.ts";

// Password sign-in per address (docs/decisions/057): 10 wrong passwords within 15 minutes pause
// it for 15 minutes. Unknown addresses are counted and paused alike, so nothing here tells which
// addresses have accounts; only the owner of a real one is mailed, after the answer.

/** Whether password sign-in for this address is paused. */
export async function passwordSignInPaused(context: ServiceContext, email: string, now = Date.now()) {
  return isPasswordSignInLocked(context.db, await emailFingerprint(email), now);
}

/**
 * Counts a wrong password (or an unknown address) for this address; true when this failure
 * paused it. That failure, one per pause, mails the account's owner a reset link once the
 * answer has gone (`waitUntil`), so the answer takes the same time whether or not there is one.
 */
export async function recordPasswordFailure(
  context: ServiceContext,
  { email, appUrl }: { email: string; appUrl: string },
  now = Date.now(),
) {
  const paused = await countPasswordFailure(context.db, await emailFingerprint(email), now);
  if (paused) {
    context.cloudflare.ctx.waitUntil(
      tellOwner(context, email, appUrl).catch((error) =>
        log("error", "sign-in pause mail not sent", { error: String(error), requestId: context.requestId }),
      ),
    );
  }
  return paused;
}

/** The password proved right, or was replaced from a mailed link: the count starts again. */
export async function clearPasswordFailuresOf(context: ServiceContext, email: string) {
  await clearPasswordFailures(context.db, await emailFingerprint(email));
}

async function tellOwner(context: ServiceContext, email: string, appUrl: string) {
  const account = await findAccountByEmail(context.db, email);
  if (!account) return;
  // A link of the forgot-password flow: the reset page consumes it, and setting a password there
  // lifts the pause and signs the owner in.
  const token = await createPasswordResetToken(context.db, account.id, PASSWORD_RESET_SECONDS);
  await createMailer(context.env, context.db).send(
    signInPausedEmail({
      email: account.email,
      name: account.name,
      failures: PASSWORD_LOCKOUT.failures,
      minutes: PASSWORD_LOCKOUT.seconds / 60,
      resetUrl: `${appUrl}${RESET_PASSWORD_PATH}?token=${encodeURIComponent(token)}`,
    }),
  );
}
