import { expect, it } from "vitest";
import { formatCount } from "#app/utils/format-count.ts";

// Written out rather than formatted by Intl (decision 050); the runtime's en-GB formatter is the
// checker.
it("a count reads as Intl's en-GB writes it, from 0 to the millions", () => {
  const intl = new Intl.NumberFormat("en-GB");
  const counts = [0, 7, 99, 999, 1000, 1001, 9999, 10_004, 99_999, 100_000, 123_456, 999_999, 1_000_000, 12_345_678];
  for (let count = 0; count < 20_000; count += 37) counts.push(count);
  for (const count of counts) expect(formatCount(count)).toBe(intl.format(count));
});
