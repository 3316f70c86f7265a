import { beforeAll, describe, expect, it } from "vitest";
import { checkOutcome, expectUnchanged, finish, send, snapshot, type Snapshot } from "./check.ts";
import { CALLERS, label, type Row } from "./table.ts";
import { seedWorld, type World } from "./world.ts";

/**
 * Seeds the world once for the test file, with its snapshot: every test starts from that very
 * state (storage is rolled back after each), so a cell compares its end state with it.
 */
export function seededWorld() {
  const seeded = {} as { world: World; before: Snapshot };
  beforeAll(async () => {
    seeded.world = await seedWorld();
    seeded.before = await snapshot(seeded.world);
  });
  return seeded;
}

/**
 * One test per row and caller: the call answers with the cell's outcome, a page refuses to be
 * framed, and a cell that is not "ok" leaves D1 and R2 exactly as they were.
 */
export function describeMatrix(rows: Row[]) {
  const seeded = seededWorld();
  describe("the authorization matrix", () => {
    for (const row of rows) {
      describe(label(row), () => {
        for (const caller of CALLERS) {
          const outcome = row.cells[caller];
          it(`${caller}: ${outcome}`, async () => {
            const { world, before } = seeded;
            const response = await send(world, caller, row.call(world, caller));
            checkOutcome(row, outcome, response);
            // Every page, whatever its status, refuses to be framed.
            if (response.headers.get("Content-Type")?.startsWith("text/html")) {
              expect(response.headers.get("X-Frame-Options")).toBe("DENY");
              expect(response.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
            }
            await finish(row, response);
            if (outcome !== "ok") await expectUnchanged(world, before);
          });
        }
      });
    }
  });
}
