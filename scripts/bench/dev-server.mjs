// `wrangler dev` for measurements (the benchmarks, the soak and the restore drill): the same
// local server (wrangler's dev proxy, miniflare, local D1/R2/cache) serving the test entry
// (workers/test-app.ts: the production app with the test machinery in front), started through
// wrangler's own API because only the API can leave the DevTools inspector off, and with no file
// watching. With the inspector on, wrangler relays the inspector's network events for every local
// D1 call to its Node process (about 4 ms of CPU per query on a 2-CPU machine), a cost of the
// debugging harness that a deployed Worker does not have (docs/decisions/013). The Playwright
// suite's server skips the proxy altogether (scripts/test-server.mjs).
//
// Usage: node scripts/bench/dev-server.mjs <port> <persist-to> <environment> (and DEV_SERVER_SCHEDULED)
import { unstable_DevEnv } from "wrangler";

const [port, persistTo, environment] = process.argv.slice(2);
/** DEV_SERVER_SCHEDULED: bindings (JSON) for a server whose crons GET /__scheduled?cron= runs. */
const scheduled = process.env.DEV_SERVER_SCHEDULED ? JSON.parse(process.env.DEV_SERVER_SCHEDULED) : null;
const plain = (value) => ({ type: "plain_text", value });
// wrangler.toml's `nodejs_compat` flag at its compatibility date (after 2024-09-23) is mode "v2".
const nodejsCompatMode = (config) => (config.compatibility_flags.includes("nodejs_compat") ? "v2" : null);

// wrangler only logs its controllers' errors at debug level; a failed bundle would leave a proxy
// that accepts requests and never answers them. Say so and stop, so the bench fails at once.
const devEnv = new unstable_DevEnv();
devEnv.on("error", (event) => {
  console.error(`dev-server: ${event.source}: ${event.reason}`, event.cause ?? "");
  if (event.source === "BundlerController") process.exit(1);
});
const worker = await devEnv.startWorker({
  config: "wrangler.toml",
  entrypoint: "workers/test-app.ts",
  // The `wrangler dev` command derives the bundler's Node.js compatibility from the config's
  // flags; the API does not, and without it the bundle fails on `node:crypto` (better-auth,
  // password.server.ts) while the dev proxy, already listening, holds every request forever.
  build: { nodejsCompatMode: nodejsCompatMode },
  // `development` keeps the diagnostic headers (X-D1-Round-Trips) on, whatever .dev.vars says.
  bindings: {
    ENVIRONMENT: plain(environment),
    APP_URL: plain(`http://localhost:${port}`),
    ...Object.fromEntries(Object.entries(scheduled ?? {}).map(([name, value]) => [name, plain(value)])),
  },
  dev: {
    // Only where asked (the restore drill): its middleware would be in every measured request.
    testScheduled: Boolean(scheduled),
    inspector: false,
    persist: persistTo,
    server: { port: Number(port) },
    watch: false,
    liveReload: false,
  },
});
await worker.ready;
console.log(`dev-server: ready on ${await worker.url}`);

const stop = async () => {
  await worker.dispose();
  process.exit(0);
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
