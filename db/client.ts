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

/**
 * D1 binds at most 100 parameters to one statement (a larger one fails outright). Every chunked
 * insert and every `IN (...)` list derives its size from this one figure.
 */
export const D1_MAX_BOUND_PARAMETERS = 100;

/** How many rows of `columnsPerRow` bound values one multi-row INSERT may carry. */
export const rowsPerInsert = (columnsPerRow: number) => Math.floor(D1_MAX_BOUND_PARAMETERS / columnsPerRow);

/** How many values an `IN (...)` list may hold in a statement that binds `otherParameters` more. */
export const inListLimit = (otherParameters: number) => D1_MAX_BOUND_PARAMETERS - otherParameters;

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
