import { test as base, expect, type Page } from "@playwright/test";
import { oneConnectionPerCall } from "./one-connection-per-call.ts";

oneConnectionPerCall();

type Fixtures = {
  /** A second person, in a browser context of their own. */
  secondPage: Page;
  /** More people: each call opens a page in a browser context of its own. */
  newPersonPage: () => Promise<Page>;
  /** Console errors matching these patterns are expected by the test (e.g. a 404 document). */
  allowedConsoleErrors: RegExp[];
  failOnConsoleErrors: void;
};

// Every test fails on an unexpected console error or uncaught exception in the page.
export const test = base.extend<Fixtures>({
  // Each test is its own client, as the auth rate limits (keyed by network: an IPv6 client by
  // its /64) see it. (An address from the IPv6 documentation range; Cloudflare sets this header
  // in production.)
  extraHTTPHeaders: async ({}, use) => {
    await use({
      "cf-connecting-ip": `2001:db8:${crypto.randomUUID().slice(0, 4)}:${crypto.randomUUID().slice(0, 4)}::1`,
    });
  },
  allowedConsoleErrors: [[], { option: true }],
  newPersonPage: async ({ browser, baseURL, extraHTTPHeaders, javaScriptEnabled }, use) => {
    const contexts: Awaited<ReturnType<typeof browser.newContext>>[] = [];
    await use(async () => {
      const context = await browser.newContext({ baseURL, extraHTTPHeaders, javaScriptEnabled });
      contexts.push(context);
      return context.newPage();
    });
    for (const context of contexts) await context.close();
  },
  secondPage: async ({ newPersonPage }, use) => {
    await use(await newPersonPage());
  },
  failOnConsoleErrors: [
    async ({ page, allowedConsoleErrors }, use) => {
      const errors: string[] = [];
      page.on("console", (message) => {
        if (message.type() !== "error") return;
        const text = message.text();
        // A form answered with 4xx (validation, wrong password) is expected; the page shows why.
        if (/status of (400|401|403|429) /.test(text)) return;
        // A link followed, or a form sent, while the router still read the last answer aborts that
        // read, and Remix's single fetch logs the abort before it drops the stale answer
        // (fetchAndDecode in @remix-run/react/dist/single-fetch.js): the person went on; nothing failed.
        if (text.startsWith("AbortError: signal is aborted without reason")) return;
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

/** The toast with this text: radix's toast with JavaScript, the server's status note without. */
export function toast(page: Page, text: string) {
  return page
    .getByRole("region", { name: /^Notifications/ })
    .getByRole("listitem")
    .or(page.getByRole("status"))
    .filter({ hasText: text })
    .first();
}

/** True when the page is wider than its viewport (a horizontal scrollbar on a phone). */
export async function hasHorizontalScroll(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}
