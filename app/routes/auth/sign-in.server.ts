import { safeRedirectPath } from "#app/utils/cookies.server.ts";
import { Refusal } from "#app/utils/domain-errors.server.ts";
import { signInSchema } from "#app/utils/form-schemas.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import { emailFingerprint, pathOf, securityEvent } from "#app/utils/log.server.ts";
import { enterAccount, startSession } from "#app/utils/sign-in.server.ts";
import { limitAttempts } from "./form.server.ts";

const TITLE = "Sign in failed";
const refuse = (status: 401 | 403, message: string) =>
  new Refusal({ title: TITLE, description: message, variant: "destructive" }, status);

/** Sign in (intent `signin`): a session and on to where the person was going, else the dashboard. */
export const signInIntent = defineIntent<null, typeof signInSchema>({
  schema: signInSchema,
  failureTitle: TITLE,
  hideFields: ["password"],
  async run(value, { request, context }) {
    await limitAttempts(request, context, "sign-in");
    const session = await startSession(context, request, {
      email: value.email,
      password: value.password,
      remember: value.remember === "on",
    });
    if (!session.ok || !session.body.user) {
      const { body } = session;
      securityEvent("auth.failed", {
        reason: body.code === "EMAIL_NOT_VERIFIED" ? "email not verified" : "invalid email or password",
        route: pathOf(request),
        requestId: context.requestId,
        email: await emailFingerprint(value.email),
      });
      const message =
        body.code === "EMAIL_NOT_VERIFIED"
          ? "Please confirm your email address first. We have sent you a new confirmation link."
          : (body.message ?? "Invalid email or password");
      throw refuse(session.status === 403 ? 403 : 401, message);
    }
    const destination = safeRedirectPath(value.redirectTo, "/dashboard");
    const entered = await enterAccount(
      context,
      request,
      { user: session.body.user, headers: session.headers },
      destination,
    );
    // Archived past the grace period: as good as purged, so answered like an unknown address.
    if (!entered) throw refuse(401, "Invalid email or password");
    return entered;
  },
});
