import { NotFound } from "#app/utils/domain-errors.server.ts";
import type { ServiceContext } from "../context.server.ts";
import { findCredential, revokeCredential } from "#db/queries/credentials/stored.ts";
import { requireOrganizationAdmin } from "#app/utils/authorization.server.ts";
import type { Toast } from "#app/utils/toast-message.ts";
import { notify } from "#app/services/notifications.server.ts";
import { edgeCache, invalidatePassports } from "#app/utils/passport-cache.server.ts";
import { purgeEverywhere } from "#app/utils/cache-purge.server.ts";
import { issuing, statusListUrl } from "./issuer.server.ts";

/**
 * An admin of the issuing organisation revokes a credential: its status bit is set (the list is
 * re-signed on its next request), the achievement leaves the passport, the recipient is told.
 * The organisation comes from the credential's row, never from the form.
 */
export async function revokeGivenCredential(context: ServiceContext, adminId: string, credentialId: string) {
  const credential = await findCredential(context.db, credentialId);
  if (!credential) throw new NotFound("Credential not found");
  await requireOrganizationAdmin(context, credential.organizationId, {
    userId: adminId,
    reason: "not an admin of the credential's issuer",
    credentialId,
  });
  const toast = { title: "Credential revoked", description: "It no longer verifies and has left the passport." };
  if (!(await revokeCredential(context.db, credentialId))) return toast satisfies Toast;
  const origin = issuing(context.db, context.env)?.origin;
  // The list's one cached copy (workers/routes/credentials.ts keys it by this URL) goes here now,
  // and everywhere else through the purge API when the zone is configured (else within a minute).
  if (origin) {
    const list = statusListUrl(origin, credential.statusListId);
    await edgeCache().delete(list);
    await purgeEverywhere(context.env, [list]);
  }
  if (credential.userId) {
    await invalidatePassports(context.env, credential.userId);
    const title = credential.json ? (JSON.parse(credential.json) as { name?: string }).name : undefined;
    await notify(context, [
      {
        userId: credential.userId,
        title: "Achievement revoked",
        message: `The organisation revoked "${title ?? "an achievement"}". It has left your passport.`,
        type: "warning",
      },
    ]);
  }
  return toast satisfies Toast;
}
