// `npm test`: every check the project has, each step timed, with a table of their seconds at the
// end (the README's table beside the test command is copied from it). Steps that do not depend on
// one another run side by side: the browser's install (network), the type check and the lint
// (one CPU each) beside the build; Playwright's server start (mostly waiting) beside the Workers
// tests. A side-by-side step's output is printed whole when it ends.
// `.ci/run` passes the install's seconds in NPM_CI_SECONDS, so its table starts with `npm ci`.
import { spawn } from "node:child_process";
import { mkdirSync, openSync } from "node:fs";

const started = Date.now();
const rows = [];
if (process.env.NPM_CI_SECONDS) rows.push(["install (npm ci)", Number(process.env.NPM_CI_SECONDS)]);

/** Runs one npm script (or command); resolves with its seconds, or exits the run when it fails. */
function step(name, command, { quiet = false, env = {}, hint = "" } = {}) {
  const begun = Date.now();
  return new Promise((resolve) => {
    const child = spawn("sh", ["-c", command], {
      stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit",
      env: { ...process.env, ...env },
    });
    let output = "";
    child.stdout?.on("data", (chunk) => (output += chunk));
    child.stderr?.on("data", (chunk) => (output += chunk));
    child.on("exit", (code) => {
      const seconds = Math.round((Date.now() - begun) / 1000);
      if (quiet) process.stdout.write(`\n── ${name} (${seconds} s) ──\n${output}`);
      rows.push([name, seconds]);
      if (code !== 0) {
        console.error(`\n${name} failed (exit ${code}) after ${seconds} s.${hint}`);
        printTable();
        process.exit(code ?? 1);
      }
      resolve(seconds);
    });
  });
}

function printTable() {
  const total = Math.round((Date.now() - started) / 1000) + (Number(process.env.NPM_CI_SECONDS) || 0);
  console.log("\n| Step | Seconds |\n| --- | ---: |");
  for (const [name, seconds] of rows) console.log(`| ${name} | ${seconds} |`);
  console.log(`| **total** (side-by-side steps overlap) | **${total}** |`);
}

const E2E_PORT = process.env.E2E_PORT ?? "8788";
const E2E_SERVER_LOG = ".wrangler/e2e-server.log";

/**
 * Starts Playwright's server (scripts/e2e-server.mjs) in the background, its output in
 * E2E_SERVER_LOG; resolves once it answers. It is stopped when this run exits, however it exits.
 */
async function startE2eServer() {
  mkdirSync(".wrangler", { recursive: true });
  const log = openSync(E2E_SERVER_LOG, "w");
  const server = spawn("node", ["scripts/e2e-server.mjs"], { stdio: ["ignore", log, log], detached: true });
  process.on("exit", () => {
    try {
      process.kill(-server.pid, "SIGTERM");
    } catch {
      // Already gone.
    }
  });
  const begun = Date.now();
  while (Date.now() - begun < 180_000) {
    if (server.exitCode !== null) break;
    const answered = await fetch(`http://localhost:${E2E_PORT}/api/auth/ok`).then(
      (r) => r.ok,
      () => false,
    );
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  console.error(`\nPlaywright's server did not start: see ${E2E_SERVER_LOG}.`);
  printTable();
  process.exit(1);
}

await step("prepare", "node scripts/prepare-local.mjs", { quiet: true });
// The browser is only needed by the last step: its install (network-bound) overlaps the rest.
const browser = step("browser (check, install)", "node scripts/check-chromium.mjs", { quiet: true });
// The Node tests need no build: they run here, not beside the drill's soak.
await Promise.all([
  step("typecheck", "npm run --silent typecheck", { quiet: true }),
  step("lint", "npm run --silent lint", { quiet: true }),
  step("build", "npm run --silent build", { quiet: true }),
  step("Node tests", "npm run --silent test:node", { quiet: true }),
]);
// The drill's 20-second soak starves beside anything busy: beside the Workers tests (even at nice
// 10, decision 085), or the Node tests on a slow hour, it acknowledged almost nothing. The Worker's
// size and the test entry's bundle (decision 094) are done while it seeds and starts its server.
await Promise.all([
  step("restore drill", "npm run --silent test:restore-drill", { quiet: true }),
  (async () => {
    await step("Worker size", "npm run --silent worker-size", { quiet: true });
    await step("test entry bundle", "node scripts/build/test-worker.mjs", { quiet: true });
  })(),
]);
process.env.TEST_WORKER_BUNDLED = "1";
// Playwright's server (fresh state, migrations, the seed: about 15 s, mostly waiting) starts
// beside the Workers tests; Playwright then finds it ready.
const e2eServer = startE2eServer();
await step("Workers tests", "npm run --silent test:unit");
await Promise.all([browser, e2eServer]);
await step("Playwright", "npx playwright test", {
  env: { E2E_SERVER: "started" },
  hint: ` The server's output: ${E2E_SERVER_LOG}.`,
});
printTable();
process.exit(0);
