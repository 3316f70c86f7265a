import { getTableColumns, is, SQL, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { SQLiteAsyncDialect, type SQLiteTable } from "drizzle-orm/sqlite-core";
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

/**
 * `INSERT INTO table SELECT <row> WHERE <when>`: a row written only if `when` holds when the
 * statement runs, for a batch whose checks must happen inside its own transaction (decision 038).
 * The row's values are bound as plain `insert().values()` would bind them (the columns' own
 * encodings, their defaults where a value is missing); a value may also be SQL (a subquery).
 * The statement is drizzle's own insert: `.onConflictDoNothing()` and `.returning()` chain on.
 */
export function insertWhen<T extends SQLiteTable>(
  db: Db,
  table: T,
  row: { [K in keyof T["$inferInsert"]]: T["$inferInsert"][K] | SQL },
  when: SQL,
) {
  const values = Object.entries(getTableColumns(table))
    // The columns drizzle's insert lists, in its order (generated columns are left out).
    .filter(([, column]) => !(column as unknown as { shouldDisableInsert(): boolean }).shouldDisableInsert())
    .map(([key, column]) => {
      const value = (row as Record<string, unknown>)[key];
      if (is(value, SQL)) return value;
      if (value !== undefined) return sql.param(value, column);
      if (column.defaultFn) return sql.param(column.defaultFn(), column);
      if (column.default !== undefined)
        return is(column.default, SQL) ? column.default : sql.param(column.default, column);
      return sql`null`;
    });
  return db.insert(table).select(sql`select ${sql.join(values, sql`, `)} where ${when}`);
}
