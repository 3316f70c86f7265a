// Builds the production bundle and serves it under `wrangler dev` from its own fresh local state,
// like scripts/e2e-server.mjs, so a benchmark (or the soak test) never touches `npm start`'s data.
// Shared by `npm run bench` and `npm run soak`; each passes its own state folder and log file.
import { execFileSync, execSync, spawn } from "node:child_process";
import { mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { seedSql } from "./seed.mjs";

export const PERSIST_TO = ".wrangler/bench";
const LOG_FILE = ".wrangler/bench.log";
// Wrangler would otherwise try to send usage metrics: there is no network to send them to.
const baseEnv = { ...process.env, WRANGLER_SEND_METRICS: "false" };
// `quiet` swallows stdout (wrangler d1 execute prints every statement's result) but keeps errors.
const run = (command, env = {}, { quiet = false } = {}) =>
  execSync(command, { stdio: ["ignore", quiet ? "ignore" : "inherit", "inherit"], env: { ...baseEnv, ...env } });

export function build() {
  run("node scripts/prepare-local.mjs");
  run("npm run build");
}

/**
 * Fresh local state in `persistTo`: empty, then migrated and seeded with the demo data by the seed
 * (scripts/seed.ts applies the migrations itself). `env` may name the origin the seed signs for.
 */
export function freshState(persistTo = PERSIST_TO, env = {}) {
  rmSync(persistTo, { recursive: true, force: true });
  mkdirSync(persistTo, { recursive: true });
  run("npx tsx scripts/seed.ts", { PERSIST_TO: persistTo, ...env });
}

/** Rows of one SQL statement against the local D1 in `persistTo`, through `wrangler d1 execute --json`. */
export function queryD1(sql, persistTo = PERSIST_TO) {
  const args = ["wrangler", "d1", "execute", "DB", "--local", "--persist-to", persistTo, "--json", "--command", sql];
  const out = execFileSync("npx", args, {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...baseEnv, CI: "1" },
    maxBuffer: 256 * 1024 * 1024,
  });
  return JSON.parse(out.toString()).flatMap((result) => result.results ?? []);
}

/** Fresh state: migrations, the demo seed (the bench passport's organisation lives there), then the bench passport. */
export function prepareState(passport) {
  freshState(PERSIST_TO);
  const file = join(PERSIST_TO, "bench-seed.sql");
  writeFileSync(file, seedSql(passport));
  run(`npx wrangler d1 execute DB --local --persist-to ${PERSIST_TO} --file ${file}`, { CI: "1" }, { quiet: true });
  console.log(`Seeded the bench passport (${passport.achievements} achievements) from ${file}.`);
}

/**
 * Starts the production build under `wrangler dev` (scripts/bench/dev-server.mjs) in its own
 * process group, so stopping it ends the whole tree (node → workerd) and nothing is left
 * listening on the port after the bench.
 */
export async function startServer(
  port,
  { persistTo = PERSIST_TO, logFile = LOG_FILE, environment = "development", via = "api", scheduled = null } = {},
) {
  const log = openSync(logFile, "w");
  // `via: "cli"` runs the `wrangler dev` command instead (DevTools inspector on). The API-started
  // server once listened and never answered: its bundle had failed (dev-server.mjs, decision 040).
  const [command, args] =
    via === "cli"
      ? [
          "npx",
          [
            "wrangler",
            "dev",
            "workers/test-app.ts",
            "--port",
            String(port),
            "--persist-to",
            persistTo,
            "--var",
            `ENVIRONMENT:${environment}`,
            "--var",
            `APP_URL:http://localhost:${port}`,
            "--show-interactive-dev-session=false",
          ],
        ]
      : ["node", ["scripts/bench/dev-server.mjs", String(port), persistTo, environment]];
  const child = spawn(command, args, {
    stdio: ["ignore", log, log],
    // `scheduled`: more bindings, and GET /__scheduled?cron= runs the crons (the restore drill's).
    env: scheduled ? { ...baseEnv, DEV_SERVER_SCHEDULED: JSON.stringify(scheduled) } : baseEnv,
    detached: true,
  });
  const stop = () => {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // Already gone.
    }
  };
  // A crash or Ctrl-C in the middle of a run must not leave workerd behind.
  process.once("exit", stop);
  for (const signal of ["SIGINT", "SIGTERM"]) process.once(signal, () => process.exit(130));

  const origin = `http://localhost:${port}`;
  try {
    await waitUntilReady(origin, child, logFile);
  } catch (error) {
    stop();
    throw error;
  }
  // The process group's id: scripts/bench/verify.mjs finds the Worker's workerd in it.
  return { origin, stop, pid: child.pid };
}

async function waitUntilReady(origin, child, logFile, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited (${child.exitCode}):\n${logTail(logFile)}`);
    try {
      // A server that accepts and never answers must not hold the wait past its deadline.
      const response = await fetch(`${origin}/api/auth/ok`, { signal: AbortSignal.timeout(10_000) });
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`wrangler dev did not answer on ${origin} within ${timeoutMs / 1000} s:\n${logTail(logFile)}`);
}

function logTail(logFile) {
  return readFileSync(logFile, "utf8").split("\n").slice(-30).join("\n");
}
