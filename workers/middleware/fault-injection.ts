import type { MiddlewareHandler } from "hono";
import { log } from "./request-log.ts";
import type { WorkerEnv } from "../types.ts";

/**
 * Injected faults (issue 34): a request may ask for some of the bindings' calls to fail, as an
 * outage would, so that tests (and later the fault matrix and the chaos soak) see what a person
 * sees when a part of the platform fails: the failure happens at the binding, under the app's
 * own code, which runs unchanged.
 *
 * THE SWITCH: only a Worker whose ENVIRONMENT is exactly "test" honours the request header. Any
 * other value (production's wrangler.toml value, unset, misspelt, even "development") is not
 * "test", so a deployment cannot turn it on by leaving something out (the same fail-closed
 * reading as `isProduction`, stricter still). Tests, the e2e server and the soak set "test".
 *
 * The header lists rules, comma-separated: `d1:<statement>:<table>`, where <statement> is
 * select, insert, update, delete or * and <table> a table name or *. A D1 call (a statement, or a
 * batch holding one) whose SQL is that kind of statement and names that table fails with a D1
 * error, and nothing of it runs (a batch fails whole, as D1's does). Every injected failure is
 * logged (`fault injected`, with the request id), so a 5xx can be matched to its fault.
 */
export const FAULT_HEADER = "X-Inject-Fault";

/** Whether these bindings honour injected faults: the one switch (see above). */
export const faultInjectionEnabled = (bindings: { ENVIRONMENT?: unknown }) => bindings.ENVIRONMENT === "test";

type D1Rule = { statement: string; table: string };

function parseRules(header: string): D1Rule[] {
  return header
    .split(",")
    .map((rule) => rule.trim().toLowerCase().split(":"))
    .filter((parts) => parts.length === 3 && parts[0] === "d1")
    .map(([, statement, table]) => ({ statement: statement!, table: table! }));
}

const STATEMENT = /^\s*(select|insert|update|delete|with|replace)\b/i;

/** The rule this SQL falls under, if any. */
function matchingRule(sql: string, rules: D1Rule[]) {
  const statement = STATEMENT.exec(sql)?.[1]?.toLowerCase();
  return rules.find(
    (rule) =>
      (rule.statement === "*" || rule.statement === statement) &&
      (rule.table === "*" || new RegExp(`(^|[^\\w])"?${rule.table}"?([^\\w]|$)`, "i").test(sql)),
  );
}

export const injectFaults: MiddlewareHandler<WorkerEnv> = async (c, next) => {
  const header = c.req.header(FAULT_HEADER);
  if (!header || !faultInjectionEnabled(c.env)) return next();
  const rules = parseRules(header);
  if (rules.length === 0) return next();
  const fail = (sql: string, rule: D1Rule) => {
    const fault = `d1:${rule.statement}:${rule.table}`;
    log("warn", "fault injected", { requestId: c.get("requestId"), fault, sql: sql.slice(0, 200) });
    return Promise.reject(new Error(`D1_ERROR: injected fault (${fault})`));
  };
  c.env = { ...c.env, DB: faultyD1(c.env.DB, rules, fail) };
  return next();
};

type Fail = (sql: string, rule: D1Rule) => Promise<never>;
const SQL = Symbol("sql");
const RAW = Symbol("raw statement");
const STATEMENT_CALLS = new Set(["first", "all", "run", "raw"]);

function faultyStatement(statement: D1PreparedStatement, sql: string, rules: D1Rule[], fail: Fail) {
  return new Proxy(statement, {
    get(target, property, receiver) {
      if (property === SQL) return sql;
      if (property === RAW) return target;
      if (property === "bind")
        return (...values: unknown[]) => faultyStatement(target.bind(...values), sql, rules, fail);
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      if (STATEMENT_CALLS.has(property as string)) {
        return (...args: unknown[]) => {
          const rule = matchingRule(sql, rules);
          return rule ? fail(sql, rule) : value.apply(target, args);
        };
      }
      return value.bind(target);
    },
  });
}

function faultyD1<T extends D1Database | D1DatabaseSession>(db: T, rules: D1Rule[], fail: Fail): T {
  return new Proxy(db, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property === "withSession") {
        return (start?: string) => faultyD1((target as D1Database).withSession(start), rules, fail);
      }
      if (property === "prepare") {
        return (sql: string) => faultyStatement(target.prepare(sql), sql, rules, fail);
      }
      if (property === "batch") {
        return (statements: D1PreparedStatement[]) => {
          for (const statement of statements) {
            const sql = (statement as unknown as Record<symbol, string>)[SQL] ?? "";
            const rule = matchingRule(sql, rules);
            if (rule) return fail(sql, rule);
          }
          return target.batch(statements.map(unwrap));
        };
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

function unwrap(statement: D1PreparedStatement) {
  return (statement as unknown as Record<symbol, D1PreparedStatement>)[RAW] ?? statement;
}
