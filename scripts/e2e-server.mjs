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

// The test entry under Miniflare alone (scripts/test-server.mjs, decision 083).
const server = spawn("node", ["scripts/test-server.mjs", port, persistTo], { stdio: "inherit", env: baseEnv });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
