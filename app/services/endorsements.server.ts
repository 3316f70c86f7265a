import type { ServiceContext } from "./context.server.ts";
import { registerKeyVersion } from "#db/queries/credentials/issuance.ts";
import {
  findEndorsementOwner,
  insertEndorsement,
  latestKeyOf,
  loadEndorsingContext,
  setEndorsementStatus,
} from "#db/queries/endorsements.ts";
import { forbidden } from "#app/utils/denial.server.ts";
import { NotFound, Refusal } from "#app/utils/domain-errors.server.ts";
import { refuseUnlessOrganizationAdmin } from "#app/utils/authorization.server.ts";
import { invalidatePassports } from "#app/utils/passport-cache.server.ts";
import { AS_MYSELF } from "#app/utils/form-schemas.ts";
import { consumeUserRateLimit } from "#app/utils/rate-limit.server.ts";
import { signEndorsement, type Endorser } from "./credentials/endorsement-credential.server.ts";
import { issuing } from "./credentials/issuer.server.ts";
import { personKeyOwner } from "./credentials/keys.server.ts";
import { notify } from "./notifications.server.ts";

/**
 * Endorsements (issue 33, decision 072): a signed-in person vouches for an accepted achievement
 * on someone else's public passport, as themselves or for an organisation they administer; the
 * owner shows or hides each one, and only shown ones reach the passport.
 */

export const ENDORSE_FAILURE_TITLE = "Error endorsing";
export const ENDORSE_RATE_MESSAGE = "You have endorsed many achievements in the last hour. Please try again later.";
export const SELF_ENDORSEMENT_MESSAGE = "You can't endorse your own achievement.";

type Viewer = { id: string };

/**
 * What the endorse page shows: the achievement and its owner, and each identity the viewer may
 * endorse as, with whether it already did. Not found unless the achievement is accepted, shown,
 * on `ownerId`'s public passport; refused (403) for the owner.
 */
export async function readEndorsable(
  context: ServiceContext,
  viewer: Viewer,
  { ownerId, achievementId }: { ownerId: string; achievementId: string },
) {
  const read = await loadEndorsingContext(context.db, { achievementId, viewerId: viewer.id });
  const { target } = read;
  if (
    !target ||
    target.userId !== ownerId ||
    target.status !== "accepted" ||
    !target.isVisible ||
    !target.ownerPublic ||
    target.ownerDeletedAt
  )
    throw new NotFound();
  if (target.userId === viewer.id)
    throw forbidden(
      context,
      "endorsing one's own achievement",
      { userId: viewer.id, achievementId },
      SELF_ENDORSEMENT_MESSAGE,
    );
  const identities = [
    { value: AS_MYSELF, name: read.viewerName ?? "Professional", endorsed: read.endorsedBy.includes(null) },
    ...read.administered.map((organization) => ({
      value: organization.id,
      name: organization.name,
      endorsed: read.endorsedBy.includes(organization.id),
    })),
  ];
  return { target, identities, read };
}

/**
 * Endorses the achievement as `as` (AS_MYSELF, or an organisation the viewer administers): signs
 * the EndorsementCredential, stores it pending and tells the owner, in one batch. A second
 * endorsement by the same endorser (a double submit included) changes nothing and is refused.
 */
export async function endorse(
  context: ServiceContext,
  viewer: Viewer,
  input: { ownerId: string; achievementId: string; as: string; comment: string },
) {
  if (!(await consumeUserRateLimit(context.db, viewer.id, "endorse")))
    throw new Refusal({ title: ENDORSE_FAILURE_TITLE, description: ENDORSE_RATE_MESSAGE }, 429);
  const { target, identities, read } = await readEndorsable(context, viewer, input);
  const organization = input.as === AS_MYSELF ? null : read.administered.find((row) => row.id === input.as);
  if (input.as !== AS_MYSELF)
    refuseUnlessOrganizationAdmin(
      context,
      input.as,
      organization ? { organizationName: organization.name, ...organization } : null,
      {
        userId: viewer.id,
        reason: "endorsing for an organisation one does not administer",
        achievementId: input.achievementId,
      },
    );
  const identity = identities.find((row) => row.value === input.as)!;
  if (identity.endorsed) throw alreadyEndorsed(organization?.name ?? null);

  const endorser: Endorser = organization
    ? { kind: "organization", organizationId: organization.id, name: organization.name, domain: organization.domain }
    : { kind: "person", userId: viewer.id, name: identity.name };
  const keyOwner = organization ? organization.id : personKeyOwner(viewer.id);
  const [latestKey] = await latestKeyOf(context.db, keyOwner);
  const where = issuing(context.db, context.env);
  if (!where) throw new Error("APP_URL is needed to sign an endorsement");
  const id = crypto.randomUUID();
  const signed = await signEndorsement(where, {
    id,
    achievementId: target.id,
    achievementTitle: target.title,
    comment: input.comment,
    endorser,
    latestKey,
  });
  const notice = {
    userId: target.userId,
    title: "New endorsement",
    message: `${endorser.name} endorsed "${target.title}". Show or hide it in Endorsements on your passport.`,
    type: "info" as const,
  };
  const db = context.db;
  const insert = insertEndorsement(db, {
    id,
    achievementId: target.id,
    ownerId: target.userId,
    endorserId: viewer.id,
    endorserOrganizationId: organization?.id ?? null,
    endorserName: endorser.name,
    comment: input.comment,
    credential: signed.json,
    createdAt: signed.issuedAt,
  });
  // The notification is written only when the endorsement was (a race with a double submit).
  const results = signed.register
    ? await db.batch([registerKeyVersion(db, signed.register), insert])
    : await db.batch([insert]);
  const inserted = results.at(-1) as Awaited<typeof insert>;
  if (inserted.length === 0) throw alreadyEndorsed(organization?.name ?? null);
  await notify(context, [notice]);
  return { id, ownerName: target.ownerName };
}

function alreadyEndorsed(organizationName: string | null) {
  return new Refusal(
    {
      title: ENDORSE_FAILURE_TITLE,
      description: organizationName
        ? `${organizationName} has already endorsed this achievement.`
        : "You have already endorsed this achievement.",
    },
    400,
    { as: [organizationName ? `${organizationName} has already endorsed it.` : "You have already endorsed it."] },
  );
}

/**
 * The owner's answer to one of their endorsements: 'Show' puts it on the public passport, 'Hide'
 * (or 'Remove', later) takes it off; either purges the passport's cached pages. Someone else's is
 * refused; one gone is not found; the same answer twice changes nothing.
 */
export async function answerEndorsement(
  context: ServiceContext,
  viewer: Viewer,
  { id, status }: { id: string; status: "shown" | "hidden" },
) {
  const changed = await setEndorsementStatus(context.db, { id, ownerId: viewer.id, status, now: new Date() });
  if (changed.length === 0) {
    const row = await findEndorsementOwner(context.db, id);
    if (!row) throw new NotFound();
    if (row.ownerId !== viewer.id)
      throw forbidden(context, "answering someone else's endorsement", { userId: viewer.id, endorsementId: id });
    return { changed: false };
  }
  await invalidatePassports(context.env, viewer.id);
  return { changed: true };
}
