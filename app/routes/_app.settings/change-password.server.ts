import { createMailer, passwordChangedEmail } from "#app/utils/email.server.ts";
import { FORGOT_PASSWORD_PATH } from "#app/utils/constants.ts";
import { Refusal } from "#app/utils/domain-errors.server.ts";
import { errorSummary, mergeHeaders } from "#app/utils/form-reply.server.ts";
import { passwordSchema } from "#app/utils/form-schemas.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import { log, pathOf, securityEvent } from "#app/utils/log.server.ts";
import { closeNotificationSockets } from "#app/utils/person-hub.server.ts";
import { guessablePasswordRefusal } from "#app/utils/password-rules.server.ts";
import { limitPasswordCheck } from "#app/utils/rate-limit.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const TITLE = "Error changing password";

/** better-auth checks the current password and ends every other session; this one continues under a new token. */
export const changePasswordIntent = defineIntent<Viewer, typeof passwordSchema>({
  schema: passwordSchema,
  failureTitle: TITLE,
  hideFields: ["currentPassword", "newPassword", "confirmPassword"],
  async run(value, { request, context, viewer }) {
    const guessable = guessablePasswordRefusal(
      value.newPassword,
      { email: viewer.email, name: viewer.fullName },
      "newPassword",
    );
    if (guessable) throw guessable;
    const throttled = await limitPasswordCheck(context.db, request, viewer.id);
    if (throttled) {
      // Told by the toast alone: no field is wrong, so none is marked (no field errors, no form error).
      throw new Refusal({ title: TITLE, description: throttled }, 429, {});
    }
    const response = await context.auth.api.changePassword({
      body: { currentPassword: value.currentPassword, newPassword: value.newPassword, revokeOtherSessions: true },
      headers: request.headers,
      asResponse: true,
    });
    if (response.status >= 500) throw new Error(`changePassword answered ${response.status}`);
    if (!response.ok) {
      securityEvent("auth.failed", {
        reason: "wrong current password",
        route: pathOf(request),
        requestId: context.requestId,
        userId: viewer.id,
      });
      const message = "Current password is incorrect";
      throw new Refusal({ title: TITLE, description: message }, 400, { currentPassword: [message] });
    }
    // Every other session ends, and its tabs' sockets close.
    context.cloudflare.ctx.waitUntil(closeNotificationSockets(context, viewer.id));
    await createMailer(context.env, context.db)
      .send(
        passwordChangedEmail({
          email: viewer.email,
          name: viewer.fullName,
          forgotUrl: `${context.env.APP_URL ?? new URL(request.url).origin}${FORGOT_PASSWORD_PATH}`,
        }),
      )
      .catch((error) => log("error", "mail not sent", { error: errorSummary(error) }));
    return { toast: { title: "Password updated" }, headers: mergeHeaders(response.headers) };
  },
});
