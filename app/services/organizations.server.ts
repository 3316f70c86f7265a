import { refuseUnlessOrganizationAdmin, requireOrganizationAdmin } from "#app/utils/authorization.server.ts";
import { OWN_STRONG_FACTOR_FIRST } from "#app/utils/admin-sign-in.ts";
import { forbidden } from "#app/utils/denial.server.ts";
import { Refusal } from "#app/utils/domain-errors.server.ts";
import type { Toast } from "#app/utils/toast-message.ts";
import { adminSignInQuery } from "#db/queries/memberships/authorization.ts";
import {
  createOrganization as insertOrganization,
  resetInviteCode as storeNewInviteCode,
  setRequireTwoFactor,
} from "#db/queries/organizations.ts";
import type { ServiceContext } from "./context.server.ts";

// Organisations: creating one (its creator becomes its admin), renewing its invite link, and
// whether its admins must hold a strong factor (decision 062).

/** Only an organisation account creates organisations; it becomes the new one's admin (once per submission). */
export async function createOrganization(
  context: ServiceContext,
  creator: { id: string; userType: string },
  input: { name: string; description: string | null; submissionKey?: string | null },
) {
  refuseUnlessOrganizationAccount(context, creator);
  await insertOrganization(context.db, creator.id, { ...input, submissionKey: input.submissionKey ?? null });
}

/** The check `createOrganization` makes, for a form that asks it before reading its fields. */
export function refuseUnlessOrganizationAccount(context: ServiceContext, user: { id: string; userType: string }) {
  if (user.userType !== "organization") {
    throw forbidden(
      context,
      "not an organisation account",
      { userId: user.id },
      "Only organisation accounts create organisations",
    );
  }
}

/** A new invite code: the old link stops working. Only an admin of the organisation may. */
export async function resetInviteCode(context: ServiceContext, adminId: string, organizationId: string | null) {
  await requireOrganizationAdmin(context, organizationId, { userId: adminId, reason: "invite reset by a non-admin" });
  await storeNewInviteCode(context.db, organizationId!);
}

/**
 * The organisation's admin sign-in setting, for its admin: whether it asks its admins for a
 * strong factor (two-factor on, or a passkey), whether this admin holds one, and how many of its
 * admins hold none. One read, which is also the admin check.
 */
export async function adminSignInOf(context: ServiceContext, adminId: string, organizationId: string | null) {
  const [row] = organizationId ? await adminSignInQuery(context.db, { adminId, organizationId }) : [];
  refuseUnlessOrganizationAdmin(
    context,
    organizationId,
    row
      ? {
          organizationName: row.organizationName,
          strongFactorMissing: row.requireTwoFactor && !row.adminHoldsStrongFactor,
          strongFactorRequired: row.requireTwoFactor,
        }
      : null,
    { userId: adminId, reason: "admin sign-in setting asked by a non-admin" },
  );
  return row!;
}

/**
 * Requires (or stops requiring) a strong factor of the organisation's admins. Only an admin who
 * holds one may turn it on, so nobody locks themselves out of the page that turns it off; the
 * admins without one are held back from the admin pages until they set one up. Nobody is told.
 */
export async function setAdminSignIn(
  context: ServiceContext,
  adminId: string,
  organizationId: string | null,
  requireTwoFactor: boolean,
) {
  const setting = await adminSignInOf(context, adminId, organizationId);
  if (requireTwoFactor && !setting.adminHoldsStrongFactor)
    throw new Refusal({
      title: "Could not save admin sign-in",
      description: OWN_STRONG_FACTOR_FIRST,
      variant: "destructive",
    });
  if (setting.requireTwoFactor !== requireTwoFactor)
    await setRequireTwoFactor(context.db, organizationId!, requireTwoFactor);
  return {
    title: "Admin sign-in saved",
    description: requireTwoFactor
      ? "Admins now need two-factor authentication or a passkey to open the admin dashboard."
      : "Admins no longer need two-factor authentication or a passkey to open the admin dashboard.",
  } satisfies Toast;
}
