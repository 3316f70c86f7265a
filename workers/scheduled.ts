import { purgeExpiredAccounts } from "#app/utils/account-purge.server.ts";
import { createDb } from "#db/client.ts";
import { log } from "./middleware/request-log.ts";

export const scheduled: ExportedHandlerScheduledHandler<Env> = async (controller, env) => {
  const purged = await purgeExpiredAccounts(createDb(env.DB), env.MEDIA, new Date(controller.scheduledTime));
  log("info", "purged archived accounts", { cron: controller.cron, count: purged.length, userIds: purged });
};
