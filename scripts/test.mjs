// `npm test`: every check the project has, each step timed, with a table of their seconds at the
// end (the README's table beside the test command is copied from it). Steps that do not depend on
// one another run side by side: the browser's install (network), the type check and the lint
// (one CPU each) beside the build; a side-by-side step's output is printed whole when it ends.
// `.ci/run` passes the install's seconds in NPM_CI_SECONDS, so its table starts with `npm ci`.
import { spawn } from "node:child_process";

const started = Date.now();
const rows = [];
if (process.env.NPM_CI_SECONDS) rows.push(["install (npm ci)", Number(process.env.NPM_CI_SECONDS)]);

/** Runs one npm script (or command); resolves with its seconds, or exits the run when it fails. */
function step(name, command, { quiet = false } = {}) {
  const begun = Date.now();
  return new Promise((resolve) => {
    const child = spawn("sh", ["-c", command], { stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit" });
    let output = "";
    child.stdout?.on("data", (chunk) => (output += chunk));
    child.stderr?.on("data", (chunk) => (output += chunk));
    child.on("exit", (code) => {
      const seconds = Math.round((Date.now() - begun) / 1000);
      if (quiet) process.stdout.write(`\n── ${name} (${seconds} s) ──\n${output}`);
      rows.push([name, seconds]);
      if (code !== 0) {
        console.error(`\n${name} failed (exit ${code}) after ${seconds} s.`);
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

await step("prepare", "node scripts/prepare-local.mjs", { quiet: true });
// The browser is only needed by the last step: its install (network-bound) overlaps the rest.
const browser = step("browser (check, install)", "node scripts/check-chromium.mjs", { quiet: true });
await Promise.all([
  step("typecheck", "npm run --silent typecheck", { quiet: true }),
  step("lint", "npm run --silent lint", { quiet: true }),
  step("build", "npm run --silent build", { quiet: true }),
]);
await step("Worker size", "npm run --silent worker-size");
await step("restore drill", "npm run --silent test:restore-drill");
await step("Node tests", "npm run --silent test:node");
await step("Workers tests", "npm run --silent test:unit");
await browser;
await step("Playwright", "npx playwright test");
printTable();
