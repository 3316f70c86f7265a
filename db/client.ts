import {
  createTableRelationsHelpers,
  extractTablesRelationalConfig,
  getTableColumns,
  is,
  SQL,
  sql,
  type ExtractTablesWithRelations,
} from "drizzle-orm";
import { DrizzleD1Database, SQLiteD1Session, type drizzle } from "drizzle-orm/d1";
import { SQLiteAsyncDialect, type SQLiteTable } from "drizzle-orm/sqlite-core";
import * as schema from "./schema.ts";

/**
 * drizzle over a D1 database or, as requests use it, one D1 session of it (docs/decisions/029).
 * drizzle calls only `prepare` and `batch`, which a session has; its types predate sessions.
 */
export function createDb(d1: D1Database | D1DatabaseSession): ReturnType<typeof drizzle<typeof schema, D1Database>> {
  // What drizzle(d1, { schema }) does, but with the schema's relational configuration derived once
  // per isolate: every request opens its own client (its own D1 session), and deriving it again
  // each time was a measurable part of a page's CPU (decision 079).
  const dialect = new SQLiteAsyncDialect();
  const session = new SQLiteD1Session<typeof schema, RelationalSchema["schema"]>(
    d1 as D1Database,
    dialect,
    relationalSchema(),
    {},
  );
  const db = new DrizzleD1Database<typeof schema>("async", dialect, session, relationalSchema());
  return Object.assign(db, { $client: d1 as D1Database });
}

type RelationalSchema = {
  fullSchema: typeof schema;
  schema: ExtractTablesWithRelations<typeof schema>;
  tableNamesMap: Record<string, string>;
};
let relational: RelationalSchema | undefined;
function relationalSchema() {
  if (!relational) {
    const { tables, tableNamesMap } = extractTablesRelationalConfig(schema, createTableRelationsHelpers);
    relational = { fullSchema: schema, schema: tables as RelationalSchema["schema"], tableNamesMap };
  }
  return relational;
}

export type Db = ReturnType<typeof createDb>;

/**
 * drizzle over no database, to build statements on once per isolate (their SQL and their row
 * mapping) and bind them to each request's own session: running anything on it fails.
 */
export const statementBuilder = createDb({
  prepare: () => ({ bind: unrunnable }),
  batch: unrunnable,
} as unknown as D1Database);
function unrunnable(): never {
  throw new Error("statementBuilder builds statements; bind their SQL to a request's database to run them");
}

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
  return db.insert(table).select(sql`select ${sql.join(rowValues(table, row), sql`, `)} where ${when}`);
}

/**
 * The same for several rows at once: `INSERT INTO table SELECT * FROM (<rows>) WHERE <when>`,
 * each row binding every column as `insertWhen` does (chunk them by `rowsPerInsert`).
 */
export function insertRowsWhen<T extends SQLiteTable>(
  db: Db,
  table: T,
  rows: { [K in keyof T["$inferInsert"]]: T["$inferInsert"][K] | SQL }[],
  when: SQL,
) {
  const selects = rows.map((row) => sql`select ${sql.join(rowValues(table, row), sql`, `)}`);
  return db.insert(table).select(sql`select * from (${sql.join(selects, sql` union all `)}) where ${when}`);
}

/** A row's values in the order drizzle's insert lists the columns (generated columns left out). */
function rowValues<T extends SQLiteTable>(
  table: T,
  row: { [K in keyof T["$inferInsert"]]: T["$inferInsert"][K] | SQL },
) {
  return Object.entries(getTableColumns(table))
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
}
