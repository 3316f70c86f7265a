import { redirect } from "@remix-run/cloudflare";
import { z } from "zod";
import { recheckPassword } from "#app/services/accounts/account.server.ts";
import { purgeUser } from "#app/services/account-purge.server.ts";
import { Refusal } from "#app/utils/domain-errors.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import { closeNotificationSockets } from "#app/utils/person-hub.server.ts";
import { signedInAccount } from "#app/utils/signed-in-account.server.ts";
import { signOutHeaders } from "#app/utils/session.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

// Any password is taken here and checked in `run`, so that every refusal, a missing password
// included, is answered under the spec's title with the message under the field.
const schema = z.object({ intent: z.literal("purge"), password: z.string().optional() });
const TITLE = "Error purging account";
const refuse = (message: string) => new Refusal({ title: TITLE, description: message }, 400, { password: [message] });

/** Deleting everything asks for the password again: a session left open is not enough. */
export const purgeIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: TITLE,
  hideFields: ["password"],
  async run({ password }, { request, context, viewer }) {
    if (!viewer.archivedAt) return redirect("/settings");
    if (!password) throw refuse("Password is required");
    await recheckPassword(context, signedInAccount({ request, context, viewer }), password, {
      title: TITLE,
      wrong: "Password is incorrect",
      reason: "wrong password for permanent deletion",
      throttledUnderField: true,
    });
    // Delete everything first, so a failure leaves the person signed in on Settings, told so and
    // able to try again; then end the session (sign-out tolerates the session row already gone).
    await purgeUser({ db: context.db, media: context.cloudflare.env.MEDIA, env: context.env }, viewer.id);
    const headers = await signOutHeaders(request, context);
    context.cloudflare.ctx.waitUntil(closeNotificationSockets(context, viewer.id));
    return { toast: { title: "Account Purged" }, redirectTo: "/goodbye", headers };
  },
});
