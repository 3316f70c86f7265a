// Serves the production build for Playwright from its own, fresh local state, so end-to-end
// runs never touch (or depend on) the data of `npm start`.
import { spawn } from "node:child_process";
import { freshState } from "./bench/server.mjs";

const persistTo = ".wrangler/e2e";
const port = process.env.E2E_PORT ?? "8788";
// The seed signs the demo's credentials for the origin this server answers at.
freshState(persistTo, { APP_URL: `http://localhost:${port}` });

// The test entry under Miniflare alone (scripts/test-server.mjs, decision 083).
const server = spawn("node", ["scripts/test-server.mjs", port, persistTo], {
  stdio: "inherit",
  env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
