import { sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "#db/client.ts";
import { answerAchievementUpdate, isAwaitingAnswer } from "#db/queries/achievements/writes.ts";
import { foldRenewedWrites } from "#db/queries/achievements/renewals.ts";
import {
  acceptanceInsert,
  spendAcceptExchangeStatement,
  spentBy,
  type AcceptanceProof,
} from "#db/queries/achievement-acceptances.ts";
import { rememberHolderWhen } from "#db/queries/credential-holders.ts";
import {
  answerableAchievementQuery,
  isIssuanceRace,
  issuanceWrites,
  latestKeyOfAchievementQuery,
  openStatusListOfAchievementQuery,
  registerKeyVersion,
  type AchievementKey,
} from "#db/queries/credentials/issuance.ts";
import { notificationInsert } from "#db/queries/notifications.ts";
import { log } from "#app/utils/log.server.ts";
import { invalidatePassports } from "#app/utils/passport-cache.server.ts";
import type { Toast } from "#app/utils/toast-message.ts";
import type { JsonObject } from "#app/services/credentials/data-integrity.server.ts";
import { issuing, signCredential } from "#app/services/credentials/issuer.server.ts";
import { reissueToHolder } from "#app/services/credentials/reissue.server.ts";
import { STATUS_LIST_SIZE } from "#app/services/credentials/status-list.server.ts";
import { credentialDueFor } from "#app/services/credentials/late-issuance.server.ts";
import { CREDENTIAL_PREPARING } from "#app/utils/constants.ts";
import { ownAchievement } from "./achievements.server.ts";
import type { ServiceContext } from "./context.server.ts";
import { announce } from "./notifications.server.ts";

// A recipient's answer to an achievement offered to them: recorded once, told to the giver, and
// when accepted, the organisation's credential issued in the same batch (decisions 031, 038).

/**
 * How many times accepting reads and signs, when concurrent acceptances in the same organisation
 * keep taking the status-list entry (or key version) it signed with. Each lost attempt means
 * another acceptance was stored, so with this many attempts every one of that many acceptances
 * at the same moment gets its credential. Past that, the achievement is accepted with its
 * credential left due for the cron, as after a failed signing (decision 020, issue 43).
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
  const { preparing } = await recordAnswer(context, userId, achievementId, status, options);
  if (status === "rejected") return { title: "Achievement rejected" } satisfies Toast;
  return preparing
    ? ({ title: "Achievement accepted", description: CREDENTIAL_PREPARING } satisfies Toast)
    : ({ title: "Achievement accepted" } satisfies Toast);
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
  let preparing = false;
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
    // A failed signing does not undo the acceptance: the failure is logged, and the credential
    // is left due for the frequent cron to sign (credentials/late-issuance.server.ts).
    const issuance =
      signer && achievement.organizationId && attempt <= ISSUANCE_ATTEMPTS
        ? await signCredential(signer, achievement, { latestKey, openList }, { includeMedia }).catch(
            (error: unknown) => {
              logIssuanceFailure(achievementId, error);
              return null;
            },
          )
        : null;
    const credentialDue = signer && achievement.organizationId && !issuance ? credentialDueFor({ includeMedia }) : null;
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
              {
                userId,
                credentialId: issuance.credential.id!,
                holder: signed.holder,
                issuedAt: signed.signedAt,
                credentialJson: holderCopy ? JSON.stringify(holderCopy.credential) : null,
              },
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
      answerAchievementUpdate(db, achievementId, userId, status, {
        when: spending ? spentBy(spending) : undefined,
        // Not signed now: accepted all the same, and the cron signs it later (issue 43).
        credentialDue: credentialDue ?? undefined,
      }),
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
      preparing = recorded && credentialDue !== null;
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
  return { recorded, forHolder, preparing };
}

function logIssuanceFailure(achievementId: string, error: unknown) {
  log("error", "credential issuance failed", {
    achievementId,
    error: error instanceof Error ? error.stack : String(error),
  });
}
