import { defineConfig, devices } from "@playwright/test";
import { BROWSER_ARGS, BROWSER_PATH } from "./scripts/browser.mjs";

const port = Number(process.env.E2E_PORT ?? 8788);
const BULK_SEEDED = /(paging|paged-lists)\.spec\.ts$/;

// Runs against the production build with the test entry (scripts/e2e-server.mjs), in Debian's
// headless Chromium (scripts/browser.mjs).
export default defineConfig({
  testDir: "./tests/e2e",
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  // A test that fails once is a defect to find, not noise: no retries, anywhere.
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  timeout: 30_000,
  expect: { timeout: 7_000 },
  use: {
    baseURL: `http://localhost:${port}`,
    trace: "retain-on-failure",
    launchOptions: { executablePath: BROWSER_PATH, args: BROWSER_ARGS },
  },
  projects: [
    { name: "chromium", testIgnore: BULK_SEEDED, use: { ...devices["Desktop Chrome"] } },
    // The specs that write rows straight into the server's SQLite file (tests/e2e/seed-sql.ts) run
    // after every other spec, one at a time: while that second process holds the file's lock, any
    // request the server answers fails with SQLITE_BUSY, whichever test made it. Run one of them
    // alone with `npx playwright test --no-deps tests/e2e/paging.spec.ts`.
    {
      name: "bulk-seeded",
      testMatch: BULK_SEEDED,
      dependencies: ["chromium"],
      workers: 1,
      use: { ...devices["Desktop Chrome"] },
    },
  ],
  webServer: {
    command: "node scripts/e2e-server.mjs",
    url: `http://localhost:${port}/api/auth/ok`,
    reuseExistingServer: !process.env.CI,
    timeout: 180_000,
    stdout: "ignore",
    stderr: "pipe",
  },
});
