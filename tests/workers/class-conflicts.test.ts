import { afterEach, describe, expect, it, vi } from "vitest";
import { cn } from "#app/utils/cn.ts";
import { checkClassLists } from "./class-conflicts.ts";
import { get } from "./helpers.ts";

// Decision 042: no two utilities on one element may conflict, and renders under test say so.
// The check is the tests' own (setup.ts): production carries neither it nor tailwind-merge.
describe("the class conflict check", () => {
  afterEach(() => {
    checkClassLists();
    vi.restoreAllMocks();
  });

  it("logs two conflicting utilities, and keeps the classes as they were given", () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(cn("p-2", "text-sm", "p-4")).toBe("p-2 text-sm p-4");
    expect(errors).toHaveBeenCalledWith(
      expect.stringContaining('Conflicting classes on one element: "p-2 text-sm p-4"'),
    );
  });

  it("is silent without the check, as in production", () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    checkClassLists(null);
    expect(cn("p-2", "p-4")).toBe("p-2 p-4");
    expect(errors).not.toHaveBeenCalled();
  });

  it("sees every class list of the pages the Worker renders under test", async () => {
    const seen: string[] = [];
    checkClassLists((classes) => seen.push(classes));
    expect((await get("/terms")).status).toBe(200);
    expect(seen.length).toBeGreaterThan(0);
  });
});
