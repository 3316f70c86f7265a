import { sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import {
  answerAchievementUpdate,
  isAwaitingAnswer,
  achievementExists,
  countAchievementsFromQuery,
  findAchievement,
  givenAchievementInsert,
  selfAchievementInsert,
  savedSubmissionQuery,
  setAchievementVisibility,
  type NewAchievement,
} from "#db/queries/achievements/writes.ts";
import { foldRenewedWrites, type Renewal } from "#db/queries/achievements/renewals.ts";
import { notificationInsert } from "#db/queries/notifications.ts";
import { storageChangeStatements, type CountedFile } from "#db/queries/storage.ts";
import {
  acceptanceInsert,
  spendAcceptExchangeStatement,
  spentBy,
  type AcceptanceProof,
} from "#db/queries/achievement-acceptances.ts";
import { rememberHolderWhen } from "#db/queries/credential-holders.ts";
import { recognitionEmailTargetQuery } from "#db/queries/profiles.ts";
import { adminRoleQuery, mayGive, membershipQuery } from "#db/queries/memberships/authorization.ts";
import { refuseUnlessOrganizationAdmin } from "#app/utils/authorization.server.ts";
import type { Toast } from "#app/utils/toast-message.ts";
import { forbidden } from "#app/utils/denial.server.ts";
import { AlreadySaved, NotFound, Refusal } from "#app/utils/domain-errors.server.ts";
import type { ServiceContext } from "./context.server.ts";
import { announce } from "./notifications.server.ts";
import { invalidatePassports } from "#app/utils/passport-cache.server.ts";
import { emailRecognition } from "./recognition-email.server.ts";
import { issuing, signCredential } from "#app/services/credentials/issuer.server.ts";
import { STATUS_LIST_SIZE } from "#app/services/credentials/status-list.server.ts";
import {
  answerableAchievementQuery,
  isIssuanceRace,
  issuanceWrites,
  latestKeyOfAchievementQuery,
  openStatusListOfAchievementQuery,
  registerKeyVersion,
  type AchievementKey,
} from "#db/queries/credentials/issuance.ts";
import type { Db } from "#db/client.ts";
import type { JsonObject } from "#app/services/credentials/data-integrity.server.ts";
import { reissueToHolder } from "#app/services/credentials/reissue.server.ts";
import { log } from "#app/utils/log.server.ts";

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
      mayGive(db, { giverId: admin.id, ...recipient }, limit),
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
function ownAchievement<Row extends { userId: string }>(
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

/**
 * How many times accepting reads and signs, when concurrent acceptances in the same organisation
 * keep taking the status-list entry (or key version) it signed with. Each lost attempt means
 * another acceptance was stored, so with this many attempts every one of that many acceptances
 * at the same moment gets its credential. Past that, the achievement is accepted without its
 * credential and the failure logged, as a failed signing is (decision 020).
 */
const ISSUANCE_ATTEMPTS = 4;

/**
 * Only the recipient answers; answering twice changes nothing. The giver hears the answer.
 * Accepting an organisation's achievement issues its Open Badges credential, carrying the
 * achievement's media only with the recipient's consent (`includeMedia`).
 *
 * Two round trips (decision 031): one read (the achievement, and for its credential the
 * organisation's newest key and open status list), signing in between, and one batch that
 * records the answer, its notice and the credential with its status-list entry (decision 038).
 *
 * Accepted with the holder's wallet (`signedBy`, decision 066): the same batch stores the signed
 * presentation as the proof of acceptance, remembers the credential's holder DID and tells the
 * person's own open pages, all only if this answer is the one recorded.
 */
export async function answer(
  context: ServiceContext,
  userId: string,
  achievementId: string,
  status: "accepted" | "rejected",
  options: { includeMedia?: boolean } = {},
) {
  await recordAnswer(context, userId, achievementId, status, options);
  return status === "accepted"
    ? ({ title: "Achievement accepted" } satisfies Toast)
    : ({ title: "Achievement rejected" } satisfies Toast);
}

/** What an answer reads before it signs: the achievement, its organisation's newest key and open status list. */
export const answerReads = (db: Db, achievementId: AchievementKey) =>
  [
    answerableAchievementQuery(db, achievementId),
    latestKeyOfAchievementQuery(db, achievementId),
    openStatusListOfAchievementQuery(db, achievementId, STATUS_LIST_SIZE),
  ] as const;

export type AnswerRead = [
  Awaited<ReturnType<typeof answerableAchievementQuery>>,
  Awaited<ReturnType<typeof latestKeyOfAchievementQuery>>,
  Awaited<ReturnType<typeof openStatusListOfAchievementQuery>>,
];

/**
 * `answer`, saying whether this answer was the one recorded. Accepted with the holder's wallet
 * (`signedBy`), the batch first spends the wallet's exchange and writes nothing more unless it did,
 * and the credential comes back issued to the holder's DID too (`forHolder`), for the wallet.
 * `read`: the first attempt's `answerReads`, when the caller read them in a batch of its own.
 */
export async function recordAnswer(
  context: ServiceContext,
  userId: string,
  achievementId: string,
  status: "accepted" | "rejected",
  {
    includeMedia = false,
    signedBy,
    read,
  }: { includeMedia?: boolean; signedBy?: Omit<AcceptanceProof, "achievementId" | "userId">; read?: AnswerRead } = {},
) {
  const { db } = context;
  const signer = status === "accepted" ? issuing(db, context.env) : null;
  let announced: Awaited<ReturnType<typeof notificationInsert>> = [];
  let recorded = false;
  let forHolder: JsonObject | null = null;
  for (let attempt = 1; ; attempt++) {
    const [[row], [latestKey], [openList]] =
      attempt === 1 && read ? read : await db.batch(answerReads(db, achievementId));
    const achievement = ownAchievement(context, userId, achievementId, row);
    // Answered already (a double submit): nothing changes and nobody is told again.
    if (achievement.status !== "pending") break;
    const signed = signedBy && status === "accepted" ? { ...signedBy, achievementId, userId } : null;
    const spending = signed && {
      id: signed.exchangeId,
      challenge: signed.challenge,
      holder: signed.holder,
      now: signed.signedAt,
    };
    // Every write below holds only while the achievement still awaits this answer (and, signed
    // with a wallet, while this answer spent its exchange), checked in the batch's own
    // transaction before the answer is recorded: of two racing answers, one writes.
    const awaiting = spending
      ? sql`${isAwaitingAnswer(achievementId, userId)} and ${spentBy(spending)}`
      : isAwaitingAnswer(achievementId, userId);
    // A giver whose account was purged (createdBy null) has nobody to tell.
    const notice =
      achievement.organizationId && achievement.createdBy
        ? notificationInsert(
            db,
            {
              userId: achievement.createdBy,
              title: status === "accepted" ? "Achievement accepted" : "Achievement declined",
              message: `"${achievement.title}" was ${status === "accepted" ? "accepted" : "declined"}.`,
              type: status === "accepted" ? "success" : "warning",
            },
            awaiting,
          )
        : null;
    // A failed signing does not undo the acceptance: the achievement shows without its
    // verified mark, and the failure is logged.
    const issuance =
      signer && achievement.organizationId && attempt <= ISSUANCE_ATTEMPTS
        ? await signCredential(signer, achievement, { latestKey, openList }, { includeMedia }).catch(
            (error: unknown) => {
              logIssuanceFailure(achievementId, error);
              return null;
            },
          )
        : null;
    const holderCopy =
      signed && issuance && signer
        ? await reissueToHolder(
            signer,
            { organizationId: issuance.credential.organizationId, json: issuance.credential.json! },
            signed.holder,
            latestKey,
          )
        : null;
    const ownNotice = signed
      ? notificationInsert(
          db,
          {
            userId,
            title: "Achievement accepted",
            message: `You accepted "${achievement.title}" with your wallet.`,
            type: "success",
          },
          awaiting,
        )
      : null;
    // The answer follows every statement that holds only while it is still to come; statements
    // appended after it see it recorded.
    const statements: BatchItem<"sqlite">[] = [
      ...(spending ? [spendAcceptExchangeStatement(db, spending)] : []),
      ...(notice ? [notice] : []),
      ...(ownNotice ? [ownNotice] : []),
      ...(issuance ? issuanceWrites(db, issuance, awaiting) : []),
      ...(holderCopy?.register && !issuance?.newKey ? [registerKeyVersion(db, holderCopy.register)] : []),
      ...(signed ? [acceptanceInsert(db, signed, awaiting)] : []),
      ...(signed && issuance
        ? [
            rememberHolderWhen(
              db,
              { userId, credentialId: issuance.credential.id!, holder: signed.holder, issuedAt: signed.signedAt },
              awaiting,
            ),
          ]
        : []),
      // An accepted renewal folds the entry it renews into its history (decision 071).
      ...(status === "accepted" && achievement.renewsAchievementId
        ? foldRenewedWrites(
            db,
            {
              renewsAchievementId: achievement.renewsAchievementId,
              renewalId: achievementId,
              userId,
              credentialId: issuance?.credential.id ?? null,
            },
            awaiting,
          )
        : []),
      answerAchievementUpdate(db, achievementId, userId, status, spending ? spentBy(spending) : undefined),
    ];
    try {
      const results = await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
      const first = spending ? 1 : 0;
      announced = [
        ...(notice ? (results[first] as typeof announced) : []),
        ...(ownNotice ? (results[first + (notice ? 1 : 0)] as typeof announced) : []),
      ];
      recorded = (results.at(-1) as unknown[]).length > 0;
      forHolder = recorded ? (holderCopy?.credential ?? null) : null;
      break;
    } catch (error) {
      if (!issuance || !isIssuanceRace(error)) throw error;
      // Nothing of this batch stayed; read the entry (or key version) the other one left.
      if (attempt === ISSUANCE_ATTEMPTS) logIssuanceFailure(achievementId, error);
    }
  }
  if (recorded) {
    await invalidatePassports(context.env, userId);
    announce(context, announced);
  }
  return { recorded, forHolder };
}

function logIssuanceFailure(achievementId: string, error: unknown) {
  log("error", "credential issuance failed", {
    achievementId,
    error: error instanceof Error ? error.stack : String(error),
  });
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
