import { cleanUpExpiredRows, purgeExpiredAccounts } from "#app/services/account-purge.server.ts";
import { recheckImports } from "#app/services/imports/imported-credentials.server.ts";
import { recheckDueDomains } from "#app/services/organization-domains.server.ts";
import { endSubscriptionsOfFormerAdmins } from "#app/services/payer-subscriptions.server.ts";
import { backgroundContext } from "./load-context.ts";
import { log } from "./middleware/request-log.ts";

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
  await run("domain checks", async () => {
    log("info", "checked issuer domains", { cron: controller.cron, ...(await recheckDueDomains(context, now)) });
  });
  // Imported credentials, a bounded batch a day (decision 069): a revoked one leaves the public passport.
  await run("import checks", async () => {
    log("info", "re-checked imported credentials", { cron: controller.cron, ...(await recheckImports(context, now)) });
  });
};
