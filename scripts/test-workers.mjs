// Runs the Workers-pool tests a few files at a time: two lanes side by side, each starting the
// next batch of a shared queue when its own ends, so that both lanes end at about the same time
// whatever else loads the machine. A batch is one `vitest run`: one of the authorization matrix's
// files alone (about 400 to 500 requests each), or FILES_AT_ONCE other files. The longest batches
// go first. Any argument is passed on to vitest; with a file filter, one `vitest run` does it all.
//
// Why not one `vitest run`: with isolated storage, @cloudflare/vitest-pool-workers starts one
// workerd per test file and runs every file at once, whatever `fileParallelism` says. On this
// 2-CPU machine that was 39 runtimes and a load average of 14: a test that takes under a second
// alone took 8, and the pool's own storage calls to Node between tests failed under that load
// ("Network connection lost"), twice in a row for the same test, which failed CI (decision 045).
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";

/** Test files whose runtimes run at once in one batch. */
const FILES_AT_ONCE = 5;
const LANES = 2;
/** The authorization matrix's files, long enough to be a batch each, the longest first. */
const ALONE = [
  "tests/workers/authorization-matrix/actions.test.ts",
  "tests/workers/authorization-matrix/loaders.test.ts",
  "tests/workers/authorization-matrix/cross-site.test.ts",
];
/** The other files that take a minute or more: they lead the first batch, beside the matrix's. */
const SLOW = [
  "tests/workers/hostile-inputs.test.ts",
  "tests/workers/account-recovery.test.ts",
  "tests/workers/accounts.test.ts",
];

const passedOn = process.argv.slice(2);

function vitest(files) {
  return new Promise((resolve) => {
    const child = spawn("npx", ["vitest", "run", ...files, ...passedOn], { stdio: "inherit" });
    child.on("exit", (code) => resolve(code === 0));
  });
}

if (passedOn.some((argument) => !argument.startsWith("-"))) {
  process.exit((await vitest([])) ? 0 : 1);
}

const files = readdirSync("tests/workers", { recursive: true })
  .filter((name) => name.endsWith(".test.ts"))
  .map((name) => `tests/workers/${name}`)
  .sort();
const missing = [...ALONE, ...SLOW].filter((file) => !files.includes(file));
if (missing.length > 0)
  throw new Error(`scripts/test-workers.mjs names files that do not exist: ${missing.join(", ")}`);
const others = [...SLOW, ...files.filter((file) => !ALONE.includes(file) && !SLOW.includes(file))];
const batches = others.reduce((all, file, index) => {
  if (index % FILES_AT_ONCE === 0) all.push([]);
  all.at(-1).push(file);
  return all;
}, []);
// The matrix's longest file, then the slow files' batch, then the matrix's others: the longest first.
const queue = [[ALONE[0]], batches[0], ...ALONE.slice(1).map((file) => [file]), ...batches.slice(1)];

const failed = [];
async function lane() {
  for (let batch = queue.shift(); batch; batch = queue.shift()) {
    if (!(await vitest(batch))) failed.push(...batch);
  }
}
await Promise.all(Array.from({ length: LANES }, lane));
if (failed.length > 0) {
  console.error(`\nWorkers tests failed in: ${failed.join(", ")}`);
  process.exit(1);
}
