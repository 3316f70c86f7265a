import type { MiddlewareHandler } from "hono";
import { SEVEN_DAYS_MS, writeConfirmedAccount } from "./accounts.ts";
import { testSwitchOn } from "./faults.ts";
import type { WorkerEnv } from "../types.ts";

/** Where the Playwright suite asks for a confirmed, signed-in account (tests/e2e/accounts.ts). */
export const TEST_ACCOUNTS_PATH = "/__test/accounts";

/**
 * POST {name, email, password, organizationName?} as JSON: writes a confirmed account with a live
 * session (workers/testing/accounts.ts) and answers its id with the session cookie set, as
 * confirming a sign-up leaves the browser. It saves each Playwright test a sign-up, a mail and its
 * confirmation (issue 42); the tests about those still use the forms. Only in the test entry, and
 * only when ENVIRONMENT is exactly "test" (the fault switch's reading): elsewhere it is not there.
 */
export const testAccounts: MiddlewareHandler<WorkerEnv> = async (c, next) => {
  if (c.req.method !== "POST" || c.req.path !== TEST_ACCOUNTS_PATH || !testSwitchOn(c.env)) return next();
  const fields = await c.req.json<{ name: string; email: string; password: string; organizationName?: string }>();
  const account = await writeConfirmedAccount(c.env.DB, c.env.SESSION_SECRET, fields);
  c.header("Set-Cookie", `${account.cookie}; Max-Age=${SEVEN_DAYS_MS / 1000}; Path=/; HttpOnly; SameSite=Lax`);
  return c.json({ id: account.id, organizationId: account.organizationId });
};
