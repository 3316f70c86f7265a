// Keyset pagination, the one way every growing list is paged: a page is the rows after (or
// before) the last row seen, in the list's order of (sort key, id), read through an index. No
// OFFSET: page 500 costs what page 1 costs, and a row added meanwhile never shifts a page.
import { asc, desc, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { z } from "zod";

export { PAGE_SIZES } from "./page-sizes.ts";

type CursorValue = string | number;
/** A sort key of one column, or of several (compared in order) when one column has ties. */
type CursorKey = CursorValue | CursorValue[];
export type Cursor = { key: CursorKey; id: string };
export type PageRequest = { size: number; after?: Cursor; before?: Cursor };
export type Page<T> = { items: T[]; next: string | null; previous: string | null };

const cursorValue = z.union([z.string().max(400), z.number()]);
const cursorSchema = z.tuple([z.union([cursorValue, z.array(cursorValue).min(1).max(4)]), z.string().max(64)]);

export function encodeCursor(cursor: Cursor) {
  const bytes = new TextEncoder().encode(JSON.stringify([cursor.key, cursor.id]));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** A cursor from a URL; anything malformed is no cursor (the first page), never an error. */
export function decodeCursor(value: string | null | undefined): Cursor | undefined {
  if (!value || value.length > 800) return undefined;
  try {
    const json = atob(value.replace(/-/g, "+").replace(/_/g, "/"));
    const parsed = cursorSchema.safeParse(
      JSON.parse(new TextDecoder().decode(Uint8Array.from(json, (char) => char.charCodeAt(0)))),
    );
    return parsed.success ? { key: parsed.data[0], id: parsed.data[1] } : undefined;
  } catch {
    return undefined;
  }
}

/** The page asked for by `{prefix}after` / `{prefix}before` in a URL's query. */
export function pageRequestFrom(searchParams: URLSearchParams, prefix: string, size: number): PageRequest {
  const before = decodeCursor(searchParams.get(`${prefix}before`));
  return before ? { size, before } : { size, after: decodeCursor(searchParams.get(`${prefix}after`)) };
}

/**
 * The WHERE, ORDER BY and LIMIT of one page over (key, id) in `order`. Going back reads the
 * previous rows in reverse order (still through the index), and `toPage` turns them round.
 */
export function keyset(key: SQLWrapper | SQLWrapper[], id: SQLWrapper, order: "asc" | "desc", page: PageRequest) {
  const columns = [...(Array.isArray(key) ? key : [key]), id];
  const cursor = page.before ?? page.after;
  const values = cursor ? [...(Array.isArray(cursor.key) ? cursor.key : [cursor.key]), cursor.id] : [];
  const ascending = (order === "asc") === !page.before;
  // A cursor of another list's shape (a hand-edited URL) is no cursor: the first page.
  const where: SQL | undefined =
    cursor && values.length === columns.length
      ? sql`(${sql.join(columns, sql`, `)}) ${sql.raw(ascending ? ">" : "<")} (${sql.join(
          values.map((value) => sql`${value}`),
          sql`, `,
        )})`
      : undefined;
  const orderBy = columns.map((column) => (ascending ? asc(column as SQL) : desc(column as SQL)));
  return { where, orderBy, limit: page.size + 1 };
}

/** The page from rows read with `keyset` (one more than the size, to know if more follow). */
export function toPage<T>(rows: T[], page: PageRequest, cursorOf: (row: T) => Cursor): Page<T> {
  const more = rows.length > page.size;
  const items = rows.slice(0, page.size);
  if (page.before) items.reverse();
  const first = items[0];
  const last = items.at(-1);
  const hasNext = page.before ? true : more;
  const hasPrevious = page.before ? more : Boolean(page.after);
  return {
    items,
    next: hasNext && last ? encodeCursor(cursorOf(last)) : null,
    previous: hasPrevious && first ? encodeCursor(cursorOf(first)) : null,
  };
}
