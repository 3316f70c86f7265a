/**
 * The one D1 proxy of the test entry: every call a request makes of D1 (a statement's first, all,
 * run or raw; a batch; an exec: each one round trip) is shown to `watch` with its SQL before it
 * runs. The round-trip counter counts it; the fault switch may answer with a rejection instead,
 * and then nothing of the call runs (a batch fails whole, as D1's does).
 */
export type D1Watch = (sqls: string[]) => Promise<never> | null;

const SQL = Symbol("sql");
const RAW = Symbol("raw statement");
const STATEMENT_CALLS = new Set(["first", "all", "run", "raw"]);

function watchedStatement(statement: D1PreparedStatement, sql: string, watch: D1Watch): D1PreparedStatement {
  return new Proxy(statement, {
    get(target, property, receiver) {
      if (property === SQL) return sql;
      if (property === RAW) return target;
      if (property === "bind") return (...values: unknown[]) => watchedStatement(target.bind(...values), sql, watch);
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      if (STATEMENT_CALLS.has(property as string))
        return (...args: unknown[]) => watch([sql]) ?? value.apply(target, args);
      return value.bind(target);
    },
  });
}

/** A database (or a D1 session of it, and every session opened on it) whose calls `watch` sees first. */
export function watchD1<T extends D1Database | D1DatabaseSession>(db: T, watch: D1Watch): T {
  return new Proxy(db, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property === "withSession") {
        return (start?: string) => watchD1((target as D1Database).withSession(start), watch);
      }
      if (property === "prepare") return (sql: string) => watchedStatement(target.prepare(sql), sql, watch);
      if (property === "batch") {
        return (statements: D1PreparedStatement[]) => {
          const sqls = statements.map((statement) => (statement as unknown as Record<symbol, string>)[SQL] ?? "");
          // batch() takes the real statements.
          return watch(sqls) ?? target.batch(statements.map(unwrap));
        };
      }
      if (property === "exec") return (sql: string) => watch([sql]) ?? (target as D1Database).exec(sql);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

function unwrap(statement: D1PreparedStatement) {
  return (statement as unknown as Record<symbol, D1PreparedStatement>)[RAW] ?? statement;
}
