// A page's reads as parts of one D1 batch (one round trip): each query module returns its
// statements with the function that reads their results, and the page runs every part at once.
import type { BatchItem, BatchResponse } from "drizzle-orm/batch";
import type { Db } from "../client.ts";

type Statements = readonly [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]];

/** Statements for a page's batch, and how their results become the part's value. */
export type BatchPart<T> = { statements: Statements; read: (results: readonly unknown[]) => T };

/** A part whose `read` sees its own statements' results, typed. */
export function batchPart<const S extends Statements, T>(statements: S, read: (results: BatchResponse<S>) => T) {
  return { statements, read: read as (results: readonly unknown[]) => T } satisfies BatchPart<T>;
}

/** One part alone (its own round trip). */
export async function runPart<T>(db: Db, part: BatchPart<T>): Promise<T> {
  return part.read(await db.batch(part.statements));
}

/** Every part in one batch, their values in the parts' order. */
export async function runParts<const P extends readonly BatchPart<unknown>[]>(
  db: Db,
  parts: P,
): Promise<{ [K in keyof P]: P[K] extends BatchPart<infer T> ? T : never }> {
  const statements = parts.flatMap((part) => part.statements) as unknown as Statements;
  const results = await db.batch(statements);
  let at = 0;
  return parts.map((part) => {
    const own = results.slice(at, (at += part.statements.length));
    return part.read(own);
  }) as { [K in keyof P]: P[K] extends BatchPart<infer T> ? T : never };
}
