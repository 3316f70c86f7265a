import type { BatchItem } from "drizzle-orm/batch";
import type { CredentialDue } from "#db/schema.ts";
import { foldRenewedWrites } from "#db/queries/achievements/renewals.ts";
import {
  acceptedWithoutCredentialYet,
  answerableAchievementQuery,
  clearCredentialDue,
  dueCredentials,
  isIssuanceRace,
  issuanceWrites,
  latestKeyOfAchievementQuery,
  openStatusListOfAchievementQuery,
} from "#db/queries/credentials/issuance.ts";
import { log } from "#app/utils/log.server.ts";
import { invalidatePassports, type PassportCacheEnv } from "#app/utils/passport-cache.server.ts";
import { issuing, signCredential, type Issuing } from "./issuer.server.ts";
import { STATUS_LIST_SIZE } from "./status-list.server.ts";

// A credential issued after its achievement was accepted: the accepted achievements whose signing
// failed at the time (issue 43), and the demo world's, written as accepted rows by the seed.

/** What an acceptance whose credential could not be signed leaves for the cron to sign. */
export const credentialDueFor = ({ includeMedia }: { includeMedia: boolean }): CredentialDue =>
  includeMedia ? "with-media" : "without-media";

/**
 * Signs the credential of one accepted achievement as accepting it would have: the same reads,
 * signing and writes, written only while it is accepted and still has none. Clears its place in
 * the cron's queue in the same batch. False when there was nothing to sign (no longer accepted,
 * or not an organisation's); throws when signing or the writes fail, leaving it queued.
 */
export async function issueLate(signer: Issuing, achievementId: string, { includeMedia }: { includeMedia: boolean }) {
  const { db } = signer;
  const [[achievement], [latestKey], [openList]] = await db.batch([
    answerableAchievementQuery(db, achievementId),
    latestKeyOfAchievementQuery(db, achievementId),
    openStatusListOfAchievementQuery(db, achievementId, STATUS_LIST_SIZE),
  ]);
  if (!achievement?.organizationId || achievement.status !== "accepted") {
    await clearCredentialDue(db, achievementId);
    return false;
  }
  const issuance = await signCredential(signer, achievement, { latestKey, openList }, { includeMedia });
  const when = acceptedWithoutCredentialYet(achievementId);
  const writes: BatchItem<"sqlite">[] = [
    ...issuanceWrites(db, issuance, when),
    // A renewal's older entry was folded when it was accepted; its credential now names this one.
    ...(achievement.renewsAchievementId
      ? foldRenewedWrites(
          db,
          {
            renewsAchievementId: achievement.renewsAchievementId,
            renewalId: achievementId,
            userId: achievement.userId,
            credentialId: issuance.credential.id!,
          },
          when,
        )
      : []),
    clearCredentialDue(db, achievementId),
  ];
  await db.batch(writes as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  return true;
}

/**
 * The frequent cron's share: signs the credentials of accepted achievements still waiting for
 * theirs, oldest first, at most `limit` a run. A failure leaves that one queued for the next run
 * (a concurrent issuance that took its status-list entry quietly, anything else logged).
 */
export async function signDueCredentials(
  context: { db: Issuing["db"]; env: PassportCacheEnv & Parameters<typeof issuing>[1] },
  limit: number,
) {
  const signer = issuing(context.db, context.env);
  if (!signer) return { signed: 0, failed: 0, more: false };
  const due = await dueCredentials(context.db, limit);
  let signed = 0;
  let failed = 0;
  for (const { id, userId, credentialDue } of due) {
    try {
      if (await issueLate(signer, id, { includeMedia: credentialDue === "with-media" })) {
        await invalidatePassports(context.env, userId);
        signed++;
      }
    } catch (error) {
      failed++;
      if (!isIssuanceRace(error))
        log("error", "late credential signing failed", {
          achievementId: id,
          error: error instanceof Error ? error.stack : String(error),
        });
    }
  }
  return { signed, failed, more: due.length === limit };
}
