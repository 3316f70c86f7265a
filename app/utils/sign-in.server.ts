import { redirect, type AppLoadContext } from "@remix-run/cloudflare";
import { endNewSession } from "#app/services/accounts/sessions.server.ts";
import { completeSignUp } from "#db/queries/accounts.ts";
import { findViewerProfile } from "#db/queries/profiles.ts";
import { ARCHIVE_GRACE_DAYS } from "./constants.ts";
import { redirectWithToast } from "./cookies.server.ts";
import type { Toast } from "./toast-message.ts";
import { pathOf, securityEvent } from "./log.server.ts";

/** Where an archived account chooses between reactivating and deleting everything. */
export const ARCHIVED_ACCOUNT_PATH = "/settings";

/** Where a sign-in whose password was right asks for the second factor (docs/decisions/060). */
export const TWO_FACTOR_PATH = "/auth/two-factor";

/** The second sign-in step's page, going on to `destination` afterwards. */
export function twoFactorHref(destination: string) {
  return destination === "/dashboard"
    ? TWO_FACTOR_PATH
    : `${TWO_FACTOR_PATH}?redirectTo=${encodeURIComponent(destination)}`;
}

/**
 * After a password proved who is signing in (sign-in, or a new password from a reset link):
 * an active account goes on to `destination`; an account archived within the grace period goes
 * to the page where it chooses to reactivate or to delete everything; one archived longer is
 * treated as gone (its new session is ended) and null is returned for the caller to refuse.
 */
export async function enterAccount(
  context: AppLoadContext,
  request: Request,
  session: { user: { id: string; name: string }; headers: Headers },
  destination: string,
  toast?: Toast,
) {
  await completeSignUp(context.db, session.user);
  const profile = await findViewerProfile(context.db, session.user.id);
  if (profile?.deletedAt) {
    const graceEnds = profile.deletedAt.getTime() + ARCHIVE_GRACE_DAYS * 24 * 60 * 60 * 1000;
    if (Date.now() > graceEnds) {
      securityEvent("auth.failed", {
        reason: "archived past the grace period",
        route: pathOf(request),
        requestId: context.requestId,
        userId: session.user.id,
      });
      await endNewSession(context, session.headers);
      return null;
    }
    return redirect(ARCHIVED_ACCOUNT_PATH, { headers: session.headers });
  }
  if (toast) return redirectWithToast(context.env, request, destination, toast, { headers: session.headers });
  return redirect(destination, { headers: session.headers });
}
