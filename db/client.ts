import type { SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import * as schema from "./schema.ts";

export function createDb(d1: D1Database) {
  return drizzle(d1, { schema });
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
