import { afterEach, expect, it, vi } from "vitest";

// The modules every signed-in page loads must not create Intl formatters when they are imported:
// the first one a page creates loads the browser's locale data, a long task on a phone
// (decision 040). Dates never create one (decision 050); a notification's date does, once.
const created: string[] = [];
const originals = { DateTimeFormat: Intl.DateTimeFormat, NumberFormat: Intl.NumberFormat };

function recordConstructions() {
  for (const name of ["DateTimeFormat", "NumberFormat"] as const) {
    Object.defineProperty(Intl, name, {
      configurable: true,
      writable: true,
      value: new Proxy(originals[name], {
        construct(target, args: unknown[]) {
          created.push(name);
          return Reflect.construct(target, args) as object;
        },
        apply(target, thisArg, args: unknown[]) {
          created.push(name);
          return Reflect.apply(target, thisArg, args);
        },
      }),
    });
  }
}

afterEach(() => {
  Object.assign(Intl, originals);
  created.length = 0;
});

it("importing the date, relative-time and constants modules creates no formatter, nor does a date; a notification's date creates one", async () => {
  recordConstructions();
  vi.resetModules();
  const { formatLongDate, formatShortDate } = await import("#app/utils/dates.ts");
  const { formatRelativeTime, unreadBadge } = await import("#app/utils/relative-time.ts");
  const { MEMBER_PRICE_LABEL } = await import("#app/utils/constants.ts");
  expect(created).toEqual([]);

  expect(unreadBadge(12)).toBe("9+");
  expect(MEMBER_PRICE_LABEL).toBe("£2.99");
  expect(created).toEqual([]);

  expect(formatLongDate("2024-03-15")).toBe("15 March 2024");
  expect(formatLongDate("2025-01-02")).toBe("2 January 2025");
  expect(formatShortDate("2025-03-05T10:00:00Z")).toBe("5 Mar 2025");
  const now = Date.parse("2025-06-30T12:00:00Z");
  expect(formatRelativeTime(now - 5 * 60_000, now)).toBe("5m ago");
  expect(created).toEqual([]);
  expect(formatRelativeTime(Date.parse("2025-03-05T12:00:00Z"), now)).toBe("5 Mar 2025");
  expect(formatRelativeTime(Date.parse("2025-03-04T12:00:00Z"), now)).toBe("4 Mar 2025");
  expect(created).toEqual(["DateTimeFormat"]);
});
