import { AsyncLocalStorage } from "node:async_hooks";
import type { MiddlewareHandler } from "hono";
import type { WorkerEnv } from "../types.ts";
import { setResponseHeaders } from "./response-headers.ts";

/** The round trips and rows read of the request being served; requests interleave in one isolate. */
const requestRoundTrips = new AsyncLocalStorage<{ count: number; rowsRead: number }>();
/** One counting copy of the bindings per isolate, so the load context's per-isolate parts stay cached. */
const countingEnvs = new WeakMap<Env, Env>();

/**
 * Outside production, counts the D1 calls each request makes (a statement run, a batch, an
 * exec: each is one round trip) and reports them in X-D1-Round-Trips, and the rows D1 read to
 * answer them in X-D1-Rows-Read, for tests and the benchmark to hold pages to their query
 * budgets. Production sends neither (nor pays for the counting).
 */
export const countD1RoundTrips: MiddlewareHandler<WorkerEnv> = async (c, next) => {
  if (c.env.ENVIRONMENT === "production") return next();
  let env = countingEnvs.get(c.env);
  if (!env) {
    const count = () => {
      // A call outside any request (none is known) is simply not attributed.
      const roundTrips = requestRoundTrips.getStore();
      if (roundTrips) roundTrips.count++;
    };
    env = { ...c.env, DB: countingD1(c.env.DB, count) };
    countingEnvs.set(c.env, env);
    reportRowsRead(c.env.DB);
  }
  c.env = env;
  const roundTrips = { count: 0, rowsRead: 0 };
  await requestRoundTrips.run(roundTrips, next);
  setResponseHeaders(c, {
    "X-D1-Round-Trips": String(roundTrips.count),
    "X-D1-Rows-Read": String(roundTrips.rowsRead),
  });
};

/** D1 results as workerd's D1 binding receives them: each carries what the query cost. */
type D1Answer = { meta?: { rows_read?: number } };
type D1Sender = { _sendOrThrow?: (...args: unknown[]) => Promise<D1Answer | D1Answer[]> };
const rowsReadReported = new WeakSet<object>();

/**
 * Adds the rows each D1 answer read (`meta.rows_read`) to the current request's count. The
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
    const answers = await send.apply(this, args);
    const roundTrips = requestRoundTrips.getStore();
    if (roundTrips) {
      for (const answer of [answers].flat()) roundTrips.rowsRead += answer?.meta?.rows_read ?? 0;
    }
    return answers;
  };
}

const STATEMENT_CALLS = new Set(["first", "all", "run", "raw"]);
/** Reaches the real statement behind a counting one: batch() takes real statements. */
const RAW = Symbol("raw statement");

function countingStatement(statement: D1PreparedStatement, count: () => void): D1PreparedStatement {
  return new Proxy(statement, {
    get(target, property, receiver) {
      if (property === RAW) return target;
      if (property === "bind") return (...values: unknown[]) => countingStatement(target.bind(...values), count);
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      if (STATEMENT_CALLS.has(property as string)) {
        return (...args: unknown[]) => {
          count();
          return value.apply(target, args);
        };
      }
      return value.bind(target);
    },
  });
}

/** Counts a database's round trips, and those of every D1 session opened on it (docs/decisions/029). */
function countingD1<T extends D1Database | D1DatabaseSession>(db: T, count: () => void): T {
  return new Proxy(db, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property === "withSession") {
        return (start?: string) => countingD1((target as D1Database).withSession(start), count);
      }
      if (property === "prepare") return (query: string) => countingStatement(target.prepare(query), count);
      if (property === "batch") {
        return (statements: D1PreparedStatement[]) => {
          count();
          return target.batch(statements.map(unwrap));
        };
      }
      if (property === "exec") {
        return (query: string) => {
          count();
          return (target as D1Database).exec(query);
        };
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

function unwrap(statement: D1PreparedStatement) {
  return (statement as unknown as Record<symbol, D1PreparedStatement>)[RAW] ?? statement;
}
