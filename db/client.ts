import type { SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import * as schema from "./schema.ts";

/**
 * drizzle over a D1 database or, as requests use it, one D1 session of it (docs/decisions/029).
 * drizzle calls only `prepare` and `batch`, which a session has; its types predate sessions.
 */
export function createDb(d1: D1Database | D1DatabaseSession) {
  return drizzle(d1 as D1Database, { schema });
}

export type Db = ReturnType<typeof createDb>;

const dialect = new SQLiteAsyncDialect();

/**
 * Runs raw SQL statements as one D1 batch (one transaction). drizzle's own batch cannot take raw
 * SQL with parameters, and some writes here need INSERT ... SELECT.
 */
export function batchSql(db: Db, statements: SQL[]) {
  const d1 = db.$client;
  return d1.batch(
    statements.map((statement) => {
      const query = dialect.sqlToQuery(statement);
      return d1.prepare(query.sql).bind(...query.params);
    }),
  );
}
