import type { AppLoadContext } from "@remix-run/cloudflare";

// What every Hono handler of the Worker can read from its context.
export type WorkerEnv = {
  Bindings: Env;
  Variables: {
    requestId: string;
    nonce: string;
    loadContext: AppLoadContext;
    /** Set by the test entry only (workers/testing/passport-refresh.ts): render a passport, never store it. */
    renderAfresh?: boolean;
  };
};
