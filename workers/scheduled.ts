import { cleanUpExpiredRows, purgeExpiredAccounts } from "#app/services/account-purge.server.ts";
import { recheckImports } from "#app/services/imports/imported-credentials.server.ts";
import { recheckDueDomains } from "#app/services/organization-domains.server.ts";
import { endSubscriptionsOfFormerAdmins } from "#app/services/payer-subscriptions.server.ts";
import { signDueMembershipEntries } from "#app/services/membership-entries.server.ts";
import { signDueCredentials } from "#app/services/credentials/late-issuance.server.ts";
import { sendExpiryReminders } from "#app/services/expiry-reminders.server.ts";
import { backfillStorage, deleteReleasedFiles } from "#app/services/storage.server.ts";
import { rewrapTwoFactorSecrets, twoFactorKeyOf } from "#app/utils/two-factor-secrets.server.ts";
import { rekeyOrganizationNames } from "#db/queries/organizations.ts";
import { backgroundContext } from "./load-context.ts";
import { log } from "./middleware/request-log.ts";
import { exportDatabase } from "./d1-export.ts";
import { eraseFromBackup, reconcileMediaBackup } from "./media-backup.ts";

/**
 * The frequent run (wrangler.toml): membership and late credentials to sign, released files to
 * delete, authenticators to re-wrap.
 */
export const FREQUENT_CRON = "*/10 * * * *";
/**
 * Membership credentials signed per run (about 10 ms of CPU each): a deleted organisation of
 * 10,000 members has its members' dated credentials within a day of runs (decision 070).
 */
export const MEMBERSHIP_SIGNINGS_PER_RUN = 200;
/** Late credentials signed per run: a signing outage's backlog clears within a few runs. */
export const CREDENTIAL_SIGNINGS_PER_RUN = 200;

/** Organisations (and as many verified domains) whose name key is re-made per daily run. */
export const NAME_KEYS_PER_RUN = 500;

/** The daily run: each job is logged on its own, and one job's failure never skips the next. */
export const scheduled: ExportedHandlerScheduledHandler<Env> = async (controller, env, ctx) => {
  const context = backgroundContext({ env, ctx });
  const { db, env: appEnv } = context;
  const now = new Date(controller.scheduledTime);
  const run = async (job: string, work: () => Promise<void>) => {
    try {
      await work();
    } catch (error) {
      log("error", `${job} failed`, { cron: controller.cron, error: String(error) });
    }
  };
  await run("membership credentials", async () => {
    const result = await signDueMembershipEntries(context, MEMBERSHIP_SIGNINGS_PER_RUN);
    if (result.signed + result.failed > 0)
      log(result.failed ? "error" : "info", "signed membership credentials", { cron: controller.cron, ...result });
  });
  // Accepted achievements whose credential could not be signed when they were accepted (issue 43).
  await run("late credentials", async () => {
    const result = await signDueCredentials(context, CREDENTIAL_SIGNINGS_PER_RUN);
    if (result.signed + result.failed > 0)
      log(result.failed ? "error" : "info", "signed late credentials", { cron: controller.cron, ...result });
  });
  // Files whose rows let them go and whose delete failed in the request (decision 077).
  await run("released files", async () => {
    const result = await deleteReleasedFiles(context);
    if (result.deleted > 0) log("info", "deleted released files", { cron: controller.cron, ...result });
  });
  // Authenticators not yet under the current two-factor secret (decision 098): a rotation is done within hours.
  await run("two-factor secrets", async () => {
    const result = await rewrapTwoFactorSecrets(db, twoFactorKeyOf(appEnv));
    if (result.rewrapped + result.failed > 0)
      log(result.failed ? "error" : "info", "re-wrapped two-factor secrets", { cron: controller.cron, ...result });
  });
  if (controller.cron === FREQUENT_CRON) return;
  // First: a subscription whose payer no longer runs its organisation ends (decision 059).
  await run("billing sweep", async () => {
    log("info", "ended subscriptions of former admins", {
      cron: controller.cron,
      ...(await endSubscriptionsOfFormerAdmins(context)),
    });
  });
  await run("purge", async () => {
    const { purged, failed } = await purgeExpiredAccounts({ db, media: env.MEDIA, env: appEnv }, now);
    log(failed.length ? "error" : "info", "purged archived accounts", {
      cron: controller.cron,
      count: purged.length,
      userIds: purged,
      failedUserIds: failed,
    });
  });
  await run("clean-up", async () => {
    log("info", "cleaned up expired rows", { cron: controller.cron, ...(await cleanUpExpiredRows(db, now)) });
  });
  // Files kept before the storage tally existed, counted a bounded batch of people a day (decision 077).
  await run("storage backfill", async () => {
    const result = await backfillStorage(context);
    if (result.people > 0) log("info", "counted earlier files", { cron: controller.cron, ...result });
  });
  // Organisations' name keys made before they were skeletons (issue 43, decision 092), a bounded batch a day.
  await run("name keys", async () => {
    const rekeyed = await rekeyOrganizationNames(db, NAME_KEYS_PER_RUN);
    if (rekeyed > 0) log("info", "re-made organisations' name keys", { cron: controller.cron, rekeyed });
  });
  // The media backup's reconciliation: what the queue's copies missed (decision 077).
  await run("media backup", async () => {
    log("info", "reconciled the media backup", { cron: controller.cron, ...(await reconcileMediaBackup(env)) });
  });
  // What purges erased, erased from the backup too once its lock lets go (issue 43).
  await run("backup erasures", async () => {
    const result = await eraseFromBackup({ db, backup: env.MEDIA_BACKUP }, now);
    log(result.failed ? "error" : "info", "erased from the media backup", { cron: controller.cron, ...result });
  });
  await run("domain checks", async () => {
    log("info", "checked issuer domains", { cron: controller.cron, ...(await recheckDueDomains(context, now)) });
  });
  // Expiry reminders 30 and 7 days before (decision 071): a bounded batch a run, each sent once.
  await run("expiry reminders", async () => {
    log("info", "sent expiry reminders", { cron: controller.cron, ...(await sendExpiryReminders(context, now)) });
  });
  // Imported credentials, a bounded batch a day (decision 069): a revoked one leaves the public passport.
  await run("import checks", async () => {
    log("info", "re-checked imported credentials", { cron: controller.cron, ...(await recheckImports(context, now)) });
  });
  // Last, after the day's own writes: the whole database into the backup bucket (issue 43, decision 096).
  await run("d1 export", async () => {
    log("info", "exported the database", { cron: controller.cron, ...(await exportDatabase(env, now)) });
  });
};
