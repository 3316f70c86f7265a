import { redirect } from "@remix-run/cloudflare";
import { z } from "zod";
import { purgeUser } from "#app/services/account-purge.server.ts";
import { PASSWORD_MAX_LENGTH } from "#app/utils/auth.server.ts";
import { Refusal } from "#app/utils/domain-errors.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import { pathOf, securityEvent } from "#app/utils/log.server.ts";
import { closeNotificationSockets } from "#app/utils/person-hub.server.ts";
import { limitPasswordCheck } from "#app/utils/rate-limit.server.ts";
import { signOutHeaders } from "#app/utils/session.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

// Any password is taken here and checked in `run`, so that every refusal, a missing password
// included, is answered under the spec's title with the message under the field.
const schema = z.object({ intent: z.literal("purge"), password: z.string().optional() });
const TITLE = "Error purging account";
const refuse = (message: string, status: 400 | 429 = 400) =>
  new Refusal({ title: TITLE, description: message }, status, { password: [message] });

/** Deleting everything asks for the password again: a session left open is not enough. */
export const purgeIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: TITLE,
  hideFields: ["password"],
  async run({ password }, { request, context, viewer }) {
    if (!viewer.archivedAt) return redirect("/settings");
    if (!password) throw refuse("Password is required");
    if (password.length > PASSWORD_MAX_LENGTH) throw refuse("Password is incorrect");
    const throttled = await limitPasswordCheck(context.db, request, viewer.id);
    if (throttled) throw refuse(throttled, 429);
    const verified = await context.auth.api.verifyPassword({ body: { password }, headers: request.headers }).then(
      () => true,
      () => false,
    );
    if (!verified) {
      securityEvent("auth.failed", {
        reason: "wrong password for permanent deletion",
        route: pathOf(request),
        requestId: context.requestId,
        userId: viewer.id,
      });
      throw refuse("Password is incorrect");
    }
    // Delete everything first, so a failure leaves the person signed in on Settings, told so and
    // able to try again; then end the session (sign-out tolerates the session row already gone).
    await purgeUser({ db: context.db, media: context.cloudflare.env.MEDIA, env: context.env }, viewer.id);
    const headers = await signOutHeaders(request, context);
    context.cloudflare.ctx.waitUntil(closeNotificationSockets(context, viewer.id));
    return { toast: { title: "Account Purged" }, redirectTo: "/goodbye", headers };
  },
});
