// Serves the production build for Playwright from its own, fresh local state, so end-to-end
// runs never touch (or depend on) the data of `npm start`.
import { execSync, spawn } from "node:child_process";
import { rmSync } from "node:fs";

const persistTo = ".wrangler/e2e";
const port = process.env.E2E_PORT ?? "8788";
// Wrangler would otherwise try to send usage metrics: there is no network to send them to.
const baseEnv = { ...process.env, WRANGLER_SEND_METRICS: "false" };
const run = (command, env = {}) => execSync(command, { stdio: "inherit", env: { ...baseEnv, ...env } });

rmSync(persistTo, { recursive: true, force: true });
run(`npx wrangler d1 migrations apply DB --local --persist-to ${persistTo}`, { CI: "1" });
// The seed signs the demo's credentials for the origin this server answers at.
run("npx tsx scripts/seed.ts", { PERSIST_TO: persistTo, APP_URL: `http://localhost:${port}` });

// The test entry under wrangler's API, no file watching and no inspector (scripts/bench/dev-server.mjs):
// the `wrangler dev` command watched the sources and once restarted the Worker mid-request, which
// its proxy answered with 503 "Your worker restarted mid-request".
const server = spawn("node", ["scripts/bench/dev-server.mjs", port, persistTo, "test"], {
  stdio: "inherit",
  env: baseEnv,
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
