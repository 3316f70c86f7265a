import { test as base, expect, type Page } from "@playwright/test";

type Fixtures = {
  /** Console errors matching these patterns are expected by the test (e.g. a 404 document). */
  allowedConsoleErrors: RegExp[];
  failOnConsoleErrors: void;
};

// Every test fails on an unexpected console error or uncaught exception in the page.
export const test = base.extend<Fixtures>({
  allowedConsoleErrors: [[], { option: true }],
  failOnConsoleErrors: [
    async ({ page, allowedConsoleErrors }, use) => {
      const errors: string[] = [];
      page.on("console", (message) => {
        if (message.type() !== "error") return;
        const text = message.text();
        if (!allowedConsoleErrors.some((pattern) => pattern.test(text))) errors.push(text);
      });
      page.on("pageerror", (error) => errors.push(error.message));
      await use();
      expect(errors, "console errors in the page").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** True when the page is wider than its viewport (a horizontal scrollbar on a phone). */
export async function hasHorizontalScroll(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}
