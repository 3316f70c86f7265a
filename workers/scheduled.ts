import { cleanUpExpiredRows, purgeExpiredAccounts } from "#app/services/account-purge.server.ts";
import { createDb } from "#db/client.ts";
import { log } from "./middleware/request-log.ts";

export const scheduled: ExportedHandlerScheduledHandler<Env> = async (controller, env) => {
  const db = createDb(env.DB);
  const now = new Date(controller.scheduledTime);
  const { purged, failed } = await purgeExpiredAccounts(db, env.MEDIA, now);
  log(failed.length ? "error" : "info", "purged archived accounts", {
    cron: controller.cron,
    count: purged.length,
    userIds: purged,
    failedUserIds: failed,
  });
  log("info", "cleaned up expired rows", { cron: controller.cron, ...(await cleanUpExpiredRows(db, now)) });
};
