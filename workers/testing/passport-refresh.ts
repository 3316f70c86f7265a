import type { MiddlewareHandler } from "hono";
import { isProduction } from "#app/utils/env.server.ts";
import type { WorkerEnv } from "../types.ts";

/**
 * A request that asks for a fresh render of a public passport, never stored (the benchmark's
 * uncached figures), in the test entry only and outside production: anyone's
 * `Cache-Control: no-cache` is served from the cache like any visit (issue 34).
 */
export const PASSPORT_REFRESH_HEADER = "X-Passport-Refresh";

export const passportRefresh: MiddlewareHandler<WorkerEnv> = async (c, next) => {
  if (!isProduction(c.env) && c.req.header(PASSPORT_REFRESH_HEADER) !== undefined) c.set("renderAfresh", true);
  return next();
};
