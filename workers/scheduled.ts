import { cleanUpExpiredRows, purgeExpiredAccounts } from "#app/services/account-purge.server.ts";
import { createDb } from "#db/client.ts";
import { readEnv } from "#app/utils/env.server.ts";
import { log } from "./middleware/request-log.ts";

export const scheduled: ExportedHandlerScheduledHandler<Env> = async (controller, env) => {
  const db = createDb(env.DB);
  const now = new Date(controller.scheduledTime);
  const { purged, failed } = await purgeExpiredAccounts(
    { db, media: env.MEDIA, env: readEnv(env as unknown as Record<string, unknown>) },
    now,
  );
  log(failed.length ? "error" : "info", "purged archived accounts", {
    cron: controller.cron,
    count: purged.length,
    userIds: purged,
    failedUserIds: failed,
  });
  log("info", "cleaned up expired rows", { cron: controller.cron, ...(await cleanUpExpiredRows(db, now)) });
};
