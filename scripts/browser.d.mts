// Types of browser.mjs for playwright.config.ts.
export const BROWSER_PACKAGE: string;
export const BROWSER_PATH: string;
export const BROWSER_ARGS: string[];
