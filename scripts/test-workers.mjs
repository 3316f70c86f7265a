// Runs the Workers-pool tests a few files at a time, in two lanes side by side: the
// authorization matrix alone (about 1,200 requests, 5 minutes on its own), and every other file
// in groups of FILES_AT_ONCE, one `vitest run` after another. Any argument is passed on to
// vitest; with a file filter, one `vitest run` does it all.
//
// Why not one `vitest run`: with isolated storage, @cloudflare/vitest-pool-workers starts one
// workerd per test file and runs every file at once, whatever `fileParallelism` says. On this
// 2-CPU machine that was 39 runtimes and a load average of 14: a test that takes under a second
// alone took 8, and the pool's own storage calls to Node between tests failed under that load
// ("Network connection lost"), twice in a row for the same test, which failed CI (decision 045).
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";

/** Test files whose runtimes run at once in the second lane. */
const FILES_AT_ONCE = 5;
/** Long enough to need a lane of their own: the authorization matrix's files, one after another. */
const OWN_LANE = (file) => file.startsWith("tests/workers/authorization-matrix/");

const passedOn = process.argv.slice(2);

function vitest(files) {
  return new Promise((resolve) => {
    const child = spawn("npx", ["vitest", "run", ...files, ...passedOn], { stdio: "inherit" });
    child.on("exit", (code) => resolve(code === 0));
  });
}

async function inGroups(files) {
  const failed = [];
  for (let start = 0; start < files.length; start += FILES_AT_ONCE) {
    const group = files.slice(start, start + FILES_AT_ONCE);
    if (!(await vitest(group))) failed.push(...group);
  }
  return failed;
}

async function inSequence(files) {
  const failed = [];
  for (const file of files) if (!(await vitest([file]))) failed.push(file);
  return failed;
}

if (passedOn.some((argument) => !argument.startsWith("-"))) {
  process.exit((await vitest([])) ? 0 : 1);
}

const files = readdirSync("tests/workers", { recursive: true })
  .filter((name) => name.endsWith(".test.ts"))
  .map((name) => `tests/workers/${name}`)
  .sort();
const [ownLane, rest] = await Promise.all([
  inSequence(files.filter(OWN_LANE)),
  inGroups(files.filter((file) => !OWN_LANE(file))),
]);
const failed = [...ownLane, ...rest];
if (failed.length > 0) {
  console.error(`\nWorkers tests failed in: ${failed.join(", ")}`);
  process.exit(1);
}
