import { describe, expect, it } from "vitest";
import { finish } from "../authorization-matrix/check.ts";
import { seededWorld } from "../authorization-matrix/suite.ts";
import { label, type Call, type Row } from "../authorization-matrix/table.ts";
import type { World } from "../authorization-matrix/world.ts";
import { snapshot, type Snapshot } from "../authorization-matrix/check.ts";
import {
  ACTION_ROWS,
  callerOf,
  counts,
  countsNow,
  entryOf,
  expectLoggedFailures,
  expectSameCounts,
  sendWithFault,
  shown,
} from "./cells.ts";

// The fault table, the lost answer (issue 34): D1 did the write but the answer never reached the
// client, which sends the same submission again (the same body, and the same submission key where
// the form has one: decision 012). The first send wrote (unless its entry says why not, issue 43),
// and the action's rows exist once: the retry adds no row anywhere.

/** The same call with a submission key: a form that has one dedupes by it, any other ignores it. */
function withKey(call: Call): Call {
  const key = crypto.randomUUID();
  if (call.body instanceof FormData) {
    if (!call.body.has("submissionKey")) call.body.append("submissionKey", key);
    return call;
  }
  if (call.body && !("json" in call.body) && !("submissionKey" in call.body)) {
    return { ...call, body: { ...(call.body as Record<string, string>), submissionKey: key } };
  }
  return call;
}

async function sendOnce(world: World, row: Row, call: Call) {
  const response = await sendWithFault(world, row, "", call);
  if (row.webSocket) {
    await finish(row, response);
    return { generic: false };
  }
  return shown(response);
}

describe("the answer is lost and the client sends the same submission again", () => {
  const seeded = seededWorld();
  for (const row of ACTION_ROWS) {
    const entry = entryOf(row);
    const grows = entry.retry ? ` (grows ${entry.retry.grows.join(", ")}: ${entry.retry.why})` : "";
    it(`${label(row)}, as ${callerOf(row)}${grows}`, async () => {
      const { world, before } = seeded;
      // A retry refused as a used link or a throttle may be logged; each line carries its request's id.
      expectLoggedFailures();
      const call = withKey(row.call(world, callerOf(row)));
      expect((await sendOnce(world, row, call)).generic, "the first answer: the generic error page").toBe(false);
      const first = await snapshot(world);
      // The first send did its write (a path allowed to write, that says it writes something).
      if (row.cells[callerOf(row)] === "ok" && !entry.d1?.writesNothing && !entry.noEffect)
        expect(changedTables(before, first), "the first send wrote nothing").not.toEqual([]);
      const once = counts(first);
      expect((await sendOnce(world, row, call)).generic, "the retry's answer: the generic error page").toBe(false);
      expectSameCounts(once, await countsNow(world), entry.retry?.grows ?? []);
    });
  }
});

/** The tables (and R2, as "R2") whose rows differ between two snapshots. */
function changedTables(before: Snapshot, after: Snapshot) {
  const tables = Object.keys(after.rows).filter((table) => before.rows[table] !== after.rows[table]);
  return JSON.stringify(before.objects) === JSON.stringify(after.objects) ? tables : [...tables, "R2"];
}
