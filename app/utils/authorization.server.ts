import type { Db } from "#db/client.ts";
import { isOrganizationAdmin } from "#db/queries/memberships/authorization.ts";
import { forbidden } from "./denial.server.ts";

type AdminCheck = { userId: string; reason?: string; [key: string]: unknown };

/**
 * The guard for whatever only an organisation's admin may do. The organisation is the one the
 * target row belongs to (or the caller's active organisation, held on the server), never a value
 * from the form; `userId` is the signed-in caller a route guard already established. Refuses
 * with a logged `Forbidden` (a 403) unless the caller is the organisation's admin. `reason` and the other fields
 * name what was refused in the denial's log line.
 */
export async function requireOrganizationAdmin(
  context: { db: Db; requestId?: string },
  organizationId: string | null | undefined,
  check: AdminCheck,
) {
  const isAdmin =
    Boolean(organizationId) &&
    (await isOrganizationAdmin(context.db, { userId: check.userId, organizationId: organizationId! }));
  refuseUnlessOrganizationAdmin(context, organizationId, isAdmin, check);
}

/**
 * The same refusal when the caller's role was read together with the target row (one round trip
 * for both, as the membership actions do): `isAdmin` says whether the caller administers the
 * row's organisation.
 */
export function refuseUnlessOrganizationAdmin(
  context: { requestId?: string },
  organizationId: string | null | undefined,
  isAdmin: boolean,
  { userId, reason = "not an admin of the organisation", ...fields }: AdminCheck,
) {
  if (!organizationId || !isAdmin) throw forbidden(context, reason, { userId, organizationId, ...fields });
}
