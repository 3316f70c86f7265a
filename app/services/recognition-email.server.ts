import type { ServiceContext } from "./context.server.ts";
import { createMailer, recognitionEmail } from "#app/utils/email.server.ts";
import { log } from "#app/utils/log.server.ts";

/**
 * Tells the recipient of an offered achievement by e-mail, unless they turned these e-mails off
 * in Settings. The achievement and its notification are already stored: a mail failure is
 * logged and swallowed, so it never loses the achievement or fails the admin's action.
 */
export async function emailRecognition(
  context: ServiceContext,
  input: { userId: string; title: string; organizationName: string; origin: string },
  /** The recipient's address and choice, read with the rest of the action's data. */
  target: { email: string; name: string; wantsEmail: boolean } | undefined,
) {
  try {
    if (!target?.wantsEmail) return;
    await createMailer(context.env, context.db).send(
      recognitionEmail({
        email: target.email,
        name: target.name,
        title: input.title,
        organizationName: input.organizationName,
        passportUrl: new URL("/passport", input.origin).href,
        settingsUrl: new URL("/settings", input.origin).href,
      }),
    );
  } catch (error) {
    log("error", "recognition email failed", { userId: input.userId, error: String(error) });
  }
}
