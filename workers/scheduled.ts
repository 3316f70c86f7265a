import { cleanUpExpiredRows, purgeExpiredAccounts } from "#app/services/account-purge.server.ts";
import { backgroundContext } from "./load-context.ts";
import { log } from "./middleware/request-log.ts";

export const scheduled: ExportedHandlerScheduledHandler<Env> = async (controller, env, ctx) => {
  const { db, env: appEnv } = backgroundContext({ env, ctx });
  const now = new Date(controller.scheduledTime);
  const { purged, failed } = await purgeExpiredAccounts({ db, media: env.MEDIA, env: appEnv }, now);
  log(failed.length ? "error" : "info", "purged archived accounts", {
    cron: controller.cron,
    count: purged.length,
    userIds: purged,
    failedUserIds: failed,
  });
  log("info", "cleaned up expired rows", { cron: controller.cron, ...(await cleanUpExpiredRows(db, now)) });
};
