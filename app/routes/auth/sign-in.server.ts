import type { AppLoadContext } from "@remix-run/cloudflare";
import { safeRedirectPath } from "#app/utils/cookies.server.ts";
import { replyUnexpected } from "#app/utils/form-reply.server.ts";
import { signInSchema } from "#app/utils/form-schemas.ts";
import { emailFingerprint, pathOf, securityEvent } from "#app/utils/log.server.ts";
import { enterAccount, startSession } from "#app/utils/sign-in.server.ts";
import { readAuthForm, refuseForm } from "./form.server.ts";

/** Sign in (intent `signin`): a session and on to where the person was going, else the dashboard. */
export async function signInAction(request: Request, context: AppLoadContext, formData: FormData) {
  const form = await readAuthForm(request, context, formData, { schema: signInSchema, limit: "sign-in" });
  if ("reply" in form) return form.reply;
  const { submission, value } = form;
  const refuse = (status: number, message: string) =>
    refuseForm(
      "signin",
      submission,
      { title: "Sign in failed", description: message, variant: "destructive" },
      status,
      message,
    );
  try {
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
      return refuse(session.status === 403 ? 403 : 401, message);
    }
    const destination = safeRedirectPath(value.redirectTo, "/dashboard");
    const entered = await enterAccount(
      context,
      request,
      { user: session.body.user, headers: session.headers },
      destination,
    );
    // Archived past the grace period: as good as purged, so answered like an unknown address.
    return entered ?? refuse(401, "Invalid email or password");
  } catch (error) {
    return replyUnexpected(error, {
      title: "Sign in failed",
      formId: "signin",
      submission,
      hideFields: ["password"],
      requestId: context.requestId,
    });
  }
}
