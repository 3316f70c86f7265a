import { defineConfig, devices } from "@playwright/test";
import { BROWSER_ARGS, BROWSER_PATH } from "./scripts/browser.mjs";

const port = Number(process.env.E2E_PORT ?? 8788);

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
    // A failed test keeps its trace: actions, network and DOM snapshots. Not the screencast: its
    // frames, captured for every test whether it fails or not, drew about a third of the suite's CPU.
    trace: { mode: "retain-on-failure", screenshots: false },
    launchOptions: { executablePath: BROWSER_PATH, args: BROWSER_ARGS },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"] } }],
  webServer: {
    command: "node scripts/e2e-server.mjs",
    url: `http://localhost:${port}/api/auth/ok`,
    // `npm test` starts a fresh one beside the Workers tests (scripts/test.mjs) and says so.
    reuseExistingServer: !process.env.CI || process.env.E2E_SERVER === "started",
    timeout: 180_000,
    stdout: "ignore",
    stderr: "pipe",
  },
});
