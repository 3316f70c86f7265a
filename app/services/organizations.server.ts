import { requireOrganizationAdmin } from "#app/utils/authorization.server.ts";
import { forbidden } from "#app/utils/denial.server.ts";
import {
  createOrganization as insertOrganization,
  resetInviteCode as storeNewInviteCode,
} from "#db/queries/organizations.ts";
import type { ServiceContext } from "./context.server.ts";

// Organisations: creating one (its creator becomes its admin) and renewing its invite link.

/** Only an organisation account creates organisations; it becomes the new one's admin. */
export async function createOrganization(
  context: ServiceContext,
  creator: { id: string; userType: string },
  input: { name: string; description: string | null },
) {
  refuseUnlessOrganizationAccount(context, creator);
  await insertOrganization(context.db, creator.id, input);
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
