import { describe, expect, it } from "vitest";
import { expectUnchanged } from "../authorization-matrix/check.ts";
import { seededWorld } from "../authorization-matrix/suite.ts";
import { label } from "../authorization-matrix/table.ts";
import { FAULTS } from "./entries.ts";
import { D1_OUTAGE_TITLES } from "./titles.ts";
import { ACTION_ROWS, D1_WRITES_FAIL, callerOf, entryOf, expectLoggedFailures, sendWithFault, shown } from "./cells.ts";

// The fault table, D1's column (issue 34): every write path of the authorization matrix, called by
// a caller allowed to, while every insert, update and delete of D1 fails. The person is told (the
// spec's title for the action, titles.ts, never the generic error page) and nothing is stored.

describe("the fault table covers every write path", () => {
  it("has an entry for every action row of the authorization matrix, and none for a row that is gone", () => {
    const labels = ACTION_ROWS.map(label);
    expect(labels.filter((name) => !Object.hasOwn(FAULTS, name))).toEqual([]);
    expect(Object.keys(FAULTS).filter((name) => !labels.includes(name))).toEqual([]);
  });

  it("names the title each write path shows in a D1 outage, for every path that writes", () => {
    const writing = ACTION_ROWS.filter((row) => !entryOf(row).d1?.writesNothing).map(label);
    expect(writing.filter((name) => !Object.hasOwn(D1_OUTAGE_TITLES, name))).toEqual([]);
    expect(Object.keys(D1_OUTAGE_TITLES).filter((name) => !writing.includes(name))).toEqual([]);
  });
});

describe("D1's writes fail", () => {
  const seeded = seededWorld();
  for (const row of ACTION_ROWS) {
    const entry = entryOf(row);
    it(`${label(row)}, as ${callerOf(row)}`, async () => {
      const { world, before } = seeded;
      expectLoggedFailures();
      const response = await sendWithFault(world, row, D1_WRITES_FAIL);
      const { message, generic } = await shown(response);
      if (entry.d1?.writesNothing) {
        expect(generic).toBe(false);
        expect(response.status).toBeLessThan(500);
      } else {
        expect(generic, "the generic error page").toBe(false);
        // The action's own title (the spec's catalogue), not a throttle's or a success's.
        expect(message, `status ${response.status}`).toBe(D1_OUTAGE_TITLES[label(row)]);
      }
      await expectUnchanged(world, before);
    });
  }
});
