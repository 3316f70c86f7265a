import type { Db } from "#db/client.ts";
import type { AppEnv } from "#app/utils/env.server.ts";

/**
 * What a service needs of the work it serves (a request, or the cron's background work): the
 * database, the settings, the Worker's bindings and a way to finish work after the answer. The
 * request's load context is one; services never see the request itself.
 */
export type ServiceContext = {
  db: Db;
  env: AppEnv;
  cloudflare: { env: Env; ctx: Pick<ExecutionContext, "waitUntil"> };
  /** The request's id, for log lines; absent in background work. */
  requestId?: string;
};
