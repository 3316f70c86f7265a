import { expect } from "vitest";
import { expectConsoleError } from "../console-errors.ts";
import { toastFrom } from "../helpers.ts";
import { send, snapshot, type Snapshot } from "../authorization-matrix/check.ts";
import { ROWS } from "../authorization-matrix/rows.ts";
import { CALLERS, label, type Caller, type Row } from "../authorization-matrix/table.ts";
import type { World } from "../authorization-matrix/world.ts";
import { FAULTS, type Entry } from "./entries.ts";

// How a cell of the fault table (issue 34) calls a write path with a fault injected, through the
// one switch (workers/testing/faults.ts), and reads what the person was shown.

export const FAULT_HEADER = "X-Inject-Fault";
/** Every insert, update and delete fails (reads still work): a write outage of D1. */
export const D1_WRITES_FAIL = "d1:insert:*,d1:update:*,d1:delete:*";

/** The authorization matrix's action rows: the list of write paths. */
export const ACTION_ROWS = ROWS.filter((row) => row.kind === "action");

/** The entry of a row (the meta-test proves every row has one). */
export const entryOf = (row: Row): Entry => FAULTS[label(row)] ?? {};

/** Who calls in a cell: the entry's caller, else the first caller allowed to ("ok", then "noop"). */
export function callerOf(row: Row): Caller {
  const entry = entryOf(row);
  return (
    entry.caller ??
    CALLERS.find((caller) => row.cells[caller] === "ok") ??
    CALLERS.find((caller) => row.cells[caller] === "noop") ??
    "anon"
  );
}

export const sendWithFault = (world: World, row: Row, fault: string, call = row.call(world, callerOf(row))) =>
  send(world, callerOf(row), call, fault ? { [FAULT_HEADER]: fault } : {});

const GENERIC_PAGE = "An unexpected error stopped this page";

/**
 * What the person was shown: the toast of a redirect, the toast rendered in the page's status
 * region, or a JSON answer's error. Null when nothing was said (or only the generic error page).
 */
export async function shown(response: Response): Promise<{ message: string | null; generic: boolean }> {
  const toast = toastFrom(response);
  if (toast) return { message: toast.title, generic: false };
  const type = response.headers.get("Content-Type") ?? "";
  const text = await response.text();
  if (type.startsWith("text/html")) {
    const generic = text.includes(GENERIC_PAGE);
    const match = /<div role="status"[^>]*><p[^>]*>([^<]*)<\/p>/.exec(text);
    const alert = /role="alert"[^>]*>([^<]+)</.exec(text);
    // A field's error (FieldError): the form says what went wrong next to the field.
    const fieldError = /<p id="[^"]*-error" class="[^"]*text-destructive[^"]*">([^<]+)</.exec(text);
    return { message: match?.[1] ?? alert?.[1] ?? fieldError?.[1] ?? null, generic };
  }
  if (type.includes("json")) {
    try {
      const body = JSON.parse(text) as Record<string, unknown>;
      const message = body.error_description ?? body.error ?? body.message ?? (body.toast as { title?: string })?.title;
      return { message: typeof message === "string" ? message : null, generic: false };
    } catch {
      return { message: null, generic: false };
    }
  }
  // The platform's bare "Internal Server Error" (or nothing) tells nobody anything.
  const bare = response.status >= 500 && /^(internal server error)?$/i.test(text.trim());
  return { message: bare ? null : text.trim() || null, generic: bare };
}

/** A cell causes errors on purpose: each must be logged with its request's id. */
export const expectLoggedFailures = () => expectConsoleError(/"requestId":"[^"]+"/);

/** Every table's row count and R2's object count. */
export function counts(state: Snapshot) {
  const result: Record<string, number> = {};
  for (const [table, rows] of Object.entries(state.rows)) result[table] = (JSON.parse(rows) as unknown[]).length;
  result.R2 = state.objects.length;
  return result;
}

export const countsNow = async (world: World) => counts(await snapshot(world));

export function expectSameCounts(before: Record<string, number>, after: Record<string, number>, grows: string[]) {
  const changed = Object.keys(after).filter((table) => before[table] !== after[table] && !grows.includes(table));
  expect(changed, JSON.stringify(changed.map((table) => [table, before[table], after[table]]))).toEqual([]);
}
