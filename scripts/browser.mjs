// The browser the Playwright suite and the Web Vitals bench drive: Debian's headless shell
// (package chromium-headless-shell), the same "old headless" build Playwright itself runs
// headless tests in. The full browser's new headless mode drew twice the CPU for the same pages,
// and Chromium was most of the suite's CPU on this 2-core machine (decision 084).
// CHROMIUM_PATH points at another Chromium.
export const BROWSER_PACKAGE = "chromium-headless-shell";
export const BROWSER_PATH = process.env.CHROMIUM_PATH ?? "/usr/lib/chromium/chromium-headless-shell";
// No sandbox in a container, and no attempts to reach a network: the machine has none beyond localhost.
export const BROWSER_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
