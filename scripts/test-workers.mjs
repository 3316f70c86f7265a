// Runs the Workers-pool tests in two lanes side by side (decisions 083, 086): each lane is one
// `vitest run`, one runtime that runs its files one after another. The files are dealt to the
// lanes, the costliest first to the lighter lane, by the last run's durations
// (tests/workers/durations.json, rewritten after every full run), so both lanes end together.
// Any argument is passed on to vitest; with a file filter, one `vitest run` does it all.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundleTestWorker } from "./build/test-worker.mjs";

const LANES = 2;
const DURATIONS = "tests/workers/durations.json";
/** A file the last run did not time counts as this many milliseconds. */
const UNKNOWN_MS = 10_000;

const passedOn = process.argv.slice(2);

// The runtimes keep their local state (D1, R2, Durable Objects) under the temporary directory,
// and isolated storage copies its SQLite files there before and after every test: in memory
// where the machine has a RAM-backed /dev/shm, the test step took about 5% less time (decision 087).
const env = { ...process.env, TEST_WORKER_BUNDLED: "1", ...(existsSync("/dev/shm") ? { TMPDIR: "/dev/shm" } : {}) };

function vitest(args) {
  return new Promise((resolve) => {
    const child = spawn("npx", ["vitest", "run", ...args, ...passedOn], {
      stdio: "inherit",
      env,
    });
    child.on("exit", (code) => resolve(code === 0));
  });
}

// The runtimes serve requests with the test entry bundled from the current sources and build/
// (`npm test` bundles it beside the drill and says so).
if (!process.env.TEST_WORKER_BUNDLED) bundleTestWorker();

if (passedOn.some((argument) => !argument.startsWith("-"))) {
  process.exit((await vitest([])) ? 0 : 1);
}

const files = readdirSync("tests/workers", { recursive: true })
  .filter((name) => name.endsWith(".test.ts"))
  .map((name) => `tests/workers/${name}`)
  .sort();
const lastRun = JSON.parse(readFileSync(DURATIONS, "utf8"));
const cost = (file) => lastRun[file] ?? UNKNOWN_MS;

const lanes = Array.from({ length: LANES }, () => ({ files: [], cost: 0 }));
for (const file of files.sort((a, b) => cost(b) - cost(a))) {
  const lightest = lanes.reduce((a, b) => (b.cost < a.cost ? b : a));
  lightest.files.push(file);
  lightest.cost += cost(file);
}

const reports = mkdtempSync(join(tmpdir(), "workers-tests-"));
const failed = [];
await Promise.all(
  lanes.map(async ({ files }, index) => {
    const report = join(reports, `${index}.json`);
    const args = ["--reporter=default", "--reporter=json", `--outputFile.json=${report}`];
    if (!(await vitest([...args, ...files]))) failed.push(...files);
  }),
);

// Each file's duration, for the next run's lanes (whole seconds: a small diff).
const durations = {};
for (const name of readdirSync(reports)) {
  const { testResults } = JSON.parse(readFileSync(join(reports, name), "utf8"));
  for (const result of testResults) {
    const file = result.name.slice(result.name.indexOf("tests/workers/"));
    durations[file] = Math.round((result.endTime - result.startTime) / 1000) * 1000;
  }
}
rmSync(reports, { recursive: true, force: true });
if (failed.length === 0) {
  const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(DURATIONS, `${JSON.stringify(sorted, null, 2)}\n`);
} else {
  console.error(`\nWorkers tests failed in: ${failed.join(", ")}`);
  process.exit(1);
}
