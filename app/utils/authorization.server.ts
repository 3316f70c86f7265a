import type { Db } from "#db/client.ts";
import type { SessionData } from "./auth.server.ts";
import { findAdminRole } from "#db/queries/memberships/authorization.ts";
import { forbidden } from "./denial.server.ts";
import type { Toast } from "./toast-message.ts";
import type { Viewer } from "./viewer.ts";

type AdminCheck = { userId: string; reason?: string; [key: string]: unknown };

/**
 * The caller's admin role in an organisation as a read found it (null: none), with whether the
 * organisation holds them back until they set up a strong factor (decision 062), and whether it
 * asks its admins' sessions to have used one (decision 089).
 */
export type AdminRole = {
  organizationName: string;
  strongFactorMissing: boolean;
  strongFactorRequired: boolean;
} | null;

/** The viewer's role in their active organisation, as the session guard read it (no round trip). */
export function activeAdminRole({ activeOrganization: active }: Pick<Viewer, "activeOrganization">): AdminRole {
  return active?.isAdmin
    ? {
        organizationName: active.name,
        strongFactorMissing: active.strongFactorMissing,
        strongFactorRequired: active.strongFactorRequired,
      }
    : null;
}

/**
 * What an admin check knows of the caller's session: the request's, once its guard has read it
 * (no round trip). Background work has none, and so never acts as an admin held to a strong factor.
 */
export type CallerContext = { requestId?: string; signedInSession?: () => SessionData | null | undefined };

/** Whether `userId`'s session of this request used a strong factor, at sign-in or confirmed since (decision 089). */
export function usedStrongFactor(context: CallerContext, userId: string) {
  const session = context.signedInSession?.();
  return Boolean(session && session.user.id === userId && session.session.strongFactor);
}

/** What an admin whose session used no strong factor is told, on the step-up page or as a 403's body. */
export const strongSignInRequired = (organizationName: string) =>
  ({
    title: "Confirm it's you",
    description: `${organizationName} asks its admins to confirm their sign-in with a passkey or two-factor authentication. Confirm yours to open the admin dashboard.`,
  }) satisfies Toast;

/** What an admin the organisation holds back is told, on the page they are sent to or as a 403's body. */
export const strongFactorRequired = (organizationName: string) =>
  ({
    title: "Set up two-factor authentication",
    description: `${organizationName} asks its admins to use two-factor authentication or a passkey. Set one up to open the admin dashboard.`,
  }) satisfies Toast;

/**
 * The guard for whatever only an organisation's admin may do. The organisation is the one the
 * target row belongs to (or the caller's active organisation, held on the server), never a value
 * from the form; `userId` is the signed-in caller a route guard already established. Refuses
 * with a logged `Forbidden` (a 403) unless the caller is the organisation's admin, holding the
 * strong factor it may ask of its admins. `reason` and the other fields name what was refused in
 * the denial's log line.
 */
export async function requireOrganizationAdmin(
  context: CallerContext & { db: Db },
  organizationId: string | null | undefined,
  check: AdminCheck,
) {
  const role = organizationId ? await findAdminRole(context.db, { userId: check.userId, organizationId }) : null;
  refuseUnlessOrganizationAdmin(context, organizationId, role, check);
}

/**
 * The same refusal when the caller's role was read together with the target row (one round trip
 * for both, as the membership actions do): `role` is the caller's in the row's organisation.
 * An admin without the strong factor their organisation asks for, or whose session did not use
 * it, is refused with why, in words.
 */
export function refuseUnlessOrganizationAdmin(
  context: CallerContext,
  organizationId: string | null | undefined,
  role: AdminRole,
  { userId, reason = "not an admin of the organisation", ...fields }: AdminCheck,
) {
  if (!organizationId || !role) throw forbidden(context, reason, { userId, organizationId, ...fields });
  if (role.strongFactorMissing) {
    const { description } = strongFactorRequired(role.organizationName);
    throw forbidden(
      context,
      "admin without the strong factor the organisation requires",
      {
        userId,
        organizationId,
        refused: reason,
        ...fields,
      },
      description,
    );
  }
  // The account holds one; this session, signed in with the password alone, has not used it.
  if (role.strongFactorRequired && !usedStrongFactor(context, userId)) {
    const { description } = strongSignInRequired(role.organizationName);
    throw forbidden(
      context,
      "admin whose session used no strong factor",
      { userId, organizationId, refused: reason, ...fields },
      description,
    );
  }
}
