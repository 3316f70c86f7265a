import type { MiddlewareHandler } from "hono";
import { testSwitchOn } from "./faults.ts";
import type { WorkerEnv } from "../types.ts";

/** Where the Playwright suite writes bulk rows (tests/e2e/seed-sql.ts). */
export const TEST_SQL_PATH = "/__test/sql";

/**
 * POST {statements} as JSON: runs the SQL statements in one D1 batch (one transaction) through
 * the server's own binding, and answers 204. Making hundreds of rows through the forms would take
 * minutes; writing the server's SQLite file from another process, as the specs did before, locked
 * the server's reads while it wrote, so those specs had to run alone (issue 42). Only in the test
 * entry, and only when ENVIRONMENT is exactly "test": elsewhere it is not there.
 */
export const testSql: MiddlewareHandler<WorkerEnv> = async (c, next) => {
  if (c.req.method !== "POST" || c.req.path !== TEST_SQL_PATH || !testSwitchOn(c.env)) return next();
  const { statements } = await c.req.json<{ statements: string[] }>();
  await c.env.DB.batch(statements.map((statement) => c.env.DB.prepare(statement)));
  return c.body(null, 204);
};
