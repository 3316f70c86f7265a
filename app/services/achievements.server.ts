import {
  achievementExists,
  countAchievementsFromQuery,
  findAchievement,
  givenAchievementInsert,
  selfAchievementInsert,
  savedSubmissionQuery,
  setAchievementVisibility,
  type NewAchievement,
} from "#db/queries/achievements/writes.ts";
import type { Renewal } from "#db/queries/achievements/renewals.ts";
import { notificationInsert } from "#db/queries/notifications.ts";
import { storageChangeStatements, type CountedFile } from "#db/queries/storage.ts";
import { recognitionEmailTargetQuery } from "#db/queries/profiles.ts";
import { adminRoleQuery, mayGive, membershipQuery } from "#db/queries/memberships/authorization.ts";
import { refuseUnlessOrganizationAdmin, usedStrongFactor } from "#app/utils/authorization.server.ts";
import type { Toast } from "#app/utils/toast-message.ts";
import { forbidden } from "#app/utils/denial.server.ts";
import { AlreadySaved, NotFound, Refusal } from "#app/utils/domain-errors.server.ts";
import type { ServiceContext } from "./context.server.ts";
import { announce } from "./notifications.server.ts";
import { invalidatePassports } from "#app/utils/passport-cache.server.ts";
import { emailRecognition } from "./recognition-email.server.ts";

// Achievements given by an organisation, added by a person, shown or hidden; a recipient's answer
// to one offered to them is in achievement-answers.server.ts.

const GIVE_REFUSED = { title: "Error creating achievement", variant: "destructive" } as const;

/**
 * An admin of the organisation recognises one of its approved members. The organisation is the
 * admin's active one (held on the server, as the session guard read it with its name), never a
 * value from the form.
 *
 * One round trip when it succeeds (decisions 031, 038): a batch whose INSERT checks that the
 * admin may give it (`mayGive`), then the notice, written only when the achievement was, then the
 * recipient's e-mail address and choice, read after both. Only a batch that wrote nothing reads
 * again, to say why.
 */
export async function giveAchievement(
  context: ServiceContext,
  admin: { id: string; organizationId: string; organizationName: string },
  input: NewAchievement & { userId: string },
  /** The app's origin, for the link in the recipient's e-mail. */
  origin: string,
  /** A renewal of an entry the organisation gave (decision 071): `renewAchievement` says so. */
  renewal?: Renewal,
) {
  const { db } = context;
  const { organizationId, organizationName } = admin;
  const recipient = { userId: input.userId, organizationId };
  const limit = context.env.FREE_ACHIEVEMENTS_PER_MEMBER;
  const toast = renewal
    ? ({ title: "Achievement renewed", description: "The person will be notified to accept the renewal." } as const)
    : ({
        title: "Achievement created",
        description: "The person will be notified to accept this achievement.",
      } satisfies Toast);
  const id = crypto.randomUUID();
  const [saved, notice, [emailTarget]] = await db.batch([
    givenAchievementInsert(
      db,
      { ...input, ...renewal, id, organizationId, createdBy: admin.id },
      mayGive(db, { giverId: admin.id, usedStrongFactor: usedStrongFactor(context, admin.id), ...recipient }, limit),
    ),
    notificationInsert(
      db,
      {
        userId: input.userId,
        title: renewal ? "Achievement renewed" : "New achievement",
        message: renewal
          ? `${organizationName} renewed ${input.title}. Accept the renewal to keep it valid on your passport.`
          : `${organizationName} recognised you: ${input.title}. Accept it to add it to your passport.`,
        type: "success",
      },
      achievementExists(id),
    ),
    recognitionEmailTargetQuery(db, input.userId),
  ]);
  if (saved.length === 0) throw await whyNotGiven(context, admin, input, toast);
  announce(context, notice);
  await emailRecognition(context, { userId: input.userId, title: input.title, organizationName, origin }, emailTarget);
  return toast;
}

/**
 * Why giving wrote nothing, read after the fact with the conditions of `mayGive` one by one, in
 * the order the spec's messages are checked: not an admin (or one without the strong factor the
 * organisation asks for), not an approved member, over the free
 * limit, or else this form was already saved (answered as the first time). When none holds any
 * more (the state changed between the two reads), nothing was saved and the admin is told so.
 */
async function whyNotGiven(
  context: ServiceContext,
  admin: { id: string; organizationId: string },
  input: { userId: string; submissionKey?: string | null },
  toast: Toast,
) {
  const { db } = context;
  const recipient = { userId: input.userId, organizationId: admin.organizationId };
  const [[adminRole], [member], [given], alreadySaved] = await db.batch([
    adminRoleQuery(db, { userId: admin.id, organizationId: admin.organizationId }),
    membershipQuery(db, recipient),
    countAchievementsFromQuery(db, recipient),
    savedSubmissionQuery(db, { createdBy: admin.id, userId: input.userId, submissionKey: input.submissionKey ?? "" }),
  ]);
  refuseUnlessOrganizationAdmin(context, admin.organizationId, adminRole ?? null, { userId: admin.id });
  if (member?.status !== "approved") return new Refusal({ ...GIVE_REFUSED, description: "Please select a person" });
  const limit = context.env.FREE_ACHIEVEMENTS_PER_MEMBER;
  if (limit && member.subscriptionStatus !== "active" && (given?.value ?? 0) >= limit) {
    return new Refusal({
      ...GIVE_REFUSED,
      description: `This member has reached the ${limit} achievements included without a subscription. Subscribe them to give more.`,
    });
  }
  if (input.submissionKey && alreadySaved.length > 0) return new AlreadySaved(toast);
  return new Error("the achievement was not saved, and nothing refuses it now");
}

export async function addSelfAchievement(
  context: ServiceContext,
  userId: string,
  input: NewAchievement & { company: string },
  /** The files the entry's media points at, counted as the person's. */
  files: CountedFile[] = [],
) {
  const toast = {
    title: "Achievement added",
    description: `"${input.title}" was added to your passport`,
  } satisfies Toast;
  const { db } = context;
  const id = crypto.randomUUID();
  // Its media counts towards the person's storage only if the entry was written (decision 074).
  const [saved] = await db.batch([
    selfAchievementInsert(db, userId, input, id),
    ...(files.length ? storageChangeStatements(db, userId, { counted: files, when: achievementExists(id) }) : []),
  ]);
  if (saved.length === 0) throw new AlreadySaved(toast);
  await invalidatePassports(context.env, userId);
  return toast;
}

/** The achievement a recipient acts on, as read: not found when absent, forbidden when it is someone else's. */
export function ownAchievement<Row extends { userId: string }>(
  context: ServiceContext,
  userId: string,
  achievementId: string,
  achievement: Row | undefined,
) {
  if (!achievement) throw new NotFound("Achievement not found");
  if (achievement.userId !== userId)
    throw forbidden(context, "not the recipient of the achievement", { userId, achievementId });
  return achievement;
}

export async function changeVisibility(
  context: ServiceContext,
  userId: string,
  achievementId: string,
  visible: boolean,
) {
  ownAchievement(context, userId, achievementId, await findAchievement(context.db, achievementId));
  await setAchievementVisibility(context.db, achievementId, userId, visible);
  await invalidatePassports(context.env, userId);
  return {
    title: visible ? "Achievement shown" : "Achievement hidden",
    description: visible ? "It is on your public passport again." : "It is no longer on your public passport.",
  } satisfies Toast;
}
