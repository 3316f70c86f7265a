import { AsyncLocalStorage } from "node:async_hooks";
import type { MiddlewareHandler } from "hono";
import type { WorkerEnv } from "../types.ts";
import { setResponseHeaders } from "./response-headers.ts";

/** The round trips of the request being served; requests interleave in one isolate. */
const requestRoundTrips = new AsyncLocalStorage<{ count: number }>();
/** One counting copy of the bindings per isolate, so the load context's per-isolate parts stay cached. */
const countingEnvs = new WeakMap<Env, Env>();

/**
 * Outside production, counts the D1 calls each request makes (a statement run, a batch, an
 * exec: each is one round trip) and reports them in X-D1-Round-Trips, for tests and the
 * benchmark to hold pages to their query budgets.
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
  }
  c.env = env;
  const roundTrips = { count: 0 };
  await requestRoundTrips.run(roundTrips, next);
  setResponseHeaders(c, { "X-D1-Round-Trips": String(roundTrips.count) });
};

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
