import type { Db } from "#db/client.ts";
import type { AppEnv } from "#app/utils/env.server.ts";
import type { SessionData } from "#app/utils/auth.server.ts";

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
  /**
   * The request's signed-in session once its guard has read it: how the caller signed in, which
   * admin checks read (decision 089). Absent in background work.
   */
  signedInSession?: () => SessionData | null | undefined;
};
