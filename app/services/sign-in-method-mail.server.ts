import { createMailer, signInMethodChangedEmail, type SignInMethodChange } from "#app/utils/email.server.ts";
import { errorSummary, log } from "#app/utils/log.server.ts";
import type { ServiceContext } from "./context.server.ts";

/**
 * Mails the owner that a way to sign in changed (a passkey added or removed, two-factor turned on
 * or off). Sent after the answer (`waitUntil`); a failed mail never undoes the change.
 */
export function mailSignInMethodChange(
  context: ServiceContext,
  { email, name, change, appUrl }: { email: string; name: string; change: SignInMethodChange; appUrl: string },
) {
  const anchor = change.startsWith("passkey") ? "passkeys" : "two-factor";
  const message = signInMethodChangedEmail({ email, name, change, settingsUrl: `${appUrl}/settings#${anchor}` });
  context.cloudflare.ctx.waitUntil(
    createMailer(context.env, context.db)
      .send(message)
      .catch((error) => log("error", "mail not sent", { error: errorSummary(error) })),
  );
}
