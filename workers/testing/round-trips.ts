import { AsyncLocalStorage } from "node:async_hooks";
import type { MiddlewareHandler } from "hono";
import type { WorkerEnv } from "../types.ts";
import { isProduction } from "#app/utils/env.server.ts";
import { setResponseHeaders } from "../middleware/response-headers.ts";
import { watchD1 } from "./d1-calls.ts";

/**
 * What the request being served asked of D1 (requests interleave in one isolate): its round
 * trips, the rows they read, and how long it waited for answers (`waitedMs`, the time at least
 * one call was in flight; `inFlight` and `since` track the current stretch).
 */
type D1Use = { count: number; rowsRead: number; waitedMs: number; inFlight: number; since: number };
const requestRoundTrips = new AsyncLocalStorage<D1Use>();
/** One counting copy of the bindings per isolate, so the load context's per-isolate parts stay cached. */
const countingEnvs = new WeakMap<Env, Env>();

/**
 * Tests only (workers/test-app.ts), and outside production: counts the D1 calls each request
 * makes (a statement run, a batch, an exec: each is one round trip) and reports them in
 * X-D1-Round-Trips, and the rows D1 read to answer them in X-D1-Rows-Read, for tests and the
 * benchmark to hold pages to their query budgets; the time spent waiting for D1 goes in
 * Server-Timing (`d1`), which lets the benchmark tell the local D1's cost from the Worker's own.
 * The production entry has none of this.
 */
export const countD1RoundTrips: MiddlewareHandler<WorkerEnv> = async (c, next) => {
  // The same fail-closed reading as the app's: unset or misspelt is production, which sends none.
  if (isProduction(c.env)) return next();
  let env = countingEnvs.get(c.env);
  if (!env) {
    const count = () => {
      // A call outside any request (none is known) is simply not attributed.
      const roundTrips = requestRoundTrips.getStore();
      if (roundTrips) roundTrips.count++;
    };
    env = {
      ...c.env,
      DB: watchD1(c.env.DB, () => {
        count();
        return null;
      }),
    };
    countingEnvs.set(c.env, env);
    reportRowsRead(c.env.DB);
  }
  c.env = env;
  const roundTrips: D1Use = { count: 0, rowsRead: 0, waitedMs: 0, inFlight: 0, since: 0 };
  await requestRoundTrips.run(roundTrips, next);
  setResponseHeaders(c, {
    "X-D1-Round-Trips": String(roundTrips.count),
    "X-D1-Rows-Read": String(roundTrips.rowsRead),
    "Server-Timing": `d1;dur=${roundTrips.waitedMs};desc="waiting for D1"`,
  });
};

/** D1 results as workerd's D1 binding receives them: each carries what the query cost. */
type D1Answer = { meta?: { rows_read?: number } };
type D1Sender = { _sendOrThrow?: (...args: unknown[]) => Promise<D1Answer | D1Answer[]> };
const rowsReadReported = new WeakSet<object>();

/**
 * Adds the rows each D1 answer read (`meta.rows_read`) to the current request's count, and the
 * time it waited to its D1 wait (the Worker's clock moves across I/O, which a D1 call is). The
 * binding's public calls return that figure only from `all()` and `run()`, while drizzle reads
 * through `raw()`; every call (statements, batches, sessions) goes through one internal sender of
 * workerd's D1 binding, so that is where it is read. Should a workerd update rename it, the
 * header stays at 0 and the benchmark reports the figure as missing rather than guessing.
 */
function reportRowsRead(db: D1Database) {
  let prototype: object | null = (db as unknown as { alwaysPrimarySession?: object }).alwaysPrimarySession ?? null;
  while (prototype && !Object.prototype.hasOwnProperty.call(prototype, "_sendOrThrow")) {
    prototype = Object.getPrototypeOf(prototype) as object | null;
  }
  const sender = prototype as D1Sender | null;
  const send = sender?._sendOrThrow;
  if (!sender || !send || rowsReadReported.has(sender)) return;
  rowsReadReported.add(sender);
  sender._sendOrThrow = async function (this: unknown, ...args: unknown[]) {
    const roundTrips = requestRoundTrips.getStore();
    if (roundTrips && roundTrips.inFlight++ === 0) roundTrips.since = Date.now();
    try {
      const answers = await send.apply(this, args);
      if (roundTrips) {
        for (const answer of [answers].flat()) roundTrips.rowsRead += answer?.meta?.rows_read ?? 0;
      }
      return answers;
    } finally {
      if (roundTrips && --roundTrips.inFlight === 0) roundTrips.waitedMs += Date.now() - roundTrips.since;
    }
  };
}
