import { renewableAchievementQuery } from "#db/queries/achievements/renewals.ts";
import { findAdminRole } from "#db/queries/memberships/authorization.ts";
import { refuseUnlessOrganizationAdmin } from "#app/utils/authorization.server.ts";
import { AlreadySaved, NotFound, Refusal } from "#app/utils/domain-errors.server.ts";
import type { ServiceContext } from "./context.server.ts";
import { giveAchievement } from "./achievements.server.ts";

const RENEW_REFUSED = { title: "Error creating achievement", variant: "destructive" } as const;

/**
 * 'Renew' on the given-achievements list (decision 071): an admin of the entry's organisation
 * (derived from the entry's row, never from the form or the admin's active organisation) gives
 * the same achievement again, dated `date` (today where the admin is) with a new expiry. The
 * member accepts it as any other; accepting folds the older entry into the renewal's history.
 * Only the live end of a chain is renewed, once at a time (a declined renewal frees it again).
 */
export async function renewAchievement(
  context: ServiceContext,
  adminId: string,
  input: { achievementId: string; validUntil: string; date: string; submissionKey?: string | null },
  origin: string,
) {
  const [entry] = await renewableAchievementQuery(context.db, input.achievementId);
  if (!entry?.organizationId) throw new NotFound("Achievement not found");
  const organizationId = entry.organizationId;
  refuseUnlessOrganizationAdmin(
    context,
    organizationId,
    await findAdminRole(context.db, { userId: adminId, organizationId }),
    {
      userId: adminId,
      reason: "renew: not an admin of the achievement's organisation",
      achievementId: entry.id,
    },
  );
  const toast = { title: "Achievement renewed", description: "The person will be notified to accept the renewal." };
  if (entry.liveRenewalId && input.submissionKey && entry.liveRenewalKey === input.submissionKey)
    throw new AlreadySaved(toast);
  if (entry.status !== "accepted" || entry.revokedAt)
    throw new Refusal({ ...RENEW_REFUSED, description: "Only an accepted achievement can be renewed." });
  if (entry.renewedBy || entry.liveRenewalId)
    throw new Refusal({
      ...RENEW_REFUSED,
      description: "This achievement already has a renewal. Renew the newest one once it is accepted.",
    });
  return giveAchievement(
    context,
    { id: adminId, organizationId, organizationName: entry.organizationName ?? "" },
    {
      userId: entry.userId,
      title: entry.title,
      description: entry.description,
      type: entry.type,
      imageUrl: entry.imageUrl,
      videoUrl: entry.videoUrl,
      date: input.date,
      validUntil: input.validUntil,
      submissionKey: input.submissionKey ?? null,
    },
    origin,
    {
      renewsAchievementId: entry.id,
      renewalCount: entry.renewalCount + 1,
      firstGivenOn: entry.firstGivenOn ?? entry.date,
    },
  );
}
