import { afterEach, describe, expect, it, vi } from "vitest";
import { checkClassConflicts, cn } from "#app/utils/cn.ts";
import { get } from "./helpers.ts";

// Decision 042: no two utilities on one element may conflict, and renders under test say so.
// Production and local development skip the check, which costs the dashboard 2 to 3 ms of CPU.
describe("the class conflict check", () => {
  afterEach(() => {
    checkClassConflicts(true);
    vi.restoreAllMocks();
  });

  it("logs two conflicting utilities while it is on, and keeps the classes as they were given", () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    checkClassConflicts(true);
    expect(cn("p-2", "text-sm", "p-4")).toBe("p-2 text-sm p-4");
    expect(errors).toHaveBeenCalledWith(
      expect.stringContaining('Conflicting classes on one element: "p-2 text-sm p-4"'),
    );
  });

  it("is silent while it is off", () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    checkClassConflicts(false);
    expect(cn("p-2", "p-4")).toBe("p-2 p-4");
    expect(errors).not.toHaveBeenCalled();
  });

  it("is on for every request the Worker serves under test", async () => {
    checkClassConflicts(false);
    expect((await get("/terms")).status).toBe(200);
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    cn("p-2", "p-4");
    expect(errors).toHaveBeenCalledTimes(1);
  });
});
