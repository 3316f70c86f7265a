// Serves the test entry (workers/test-app.ts) for the Playwright suite with Miniflare alone, as
// the Workers tests run it: no `wrangler dev` proxy in front. Through that proxy, a POST now and
// then came back 503 "Your worker restarted mid-request" although nothing restarted: the proxy's
// kept-alive connection to the Worker was closed by an idle timeout just as the POST was sent on
// it (workers-sdk#14641; wrangler only retries GETs). Decision 083.
//
// Usage: node scripts/test-server.mjs <port> <persist-to>
// The Worker is the test entry's bundle (scripts/build/test-worker.mjs: as `wrangler deploy
// --dry-run` bundles it, with its module rules and Node.js compatibility), bound as wrangler.toml
// says (unstable_getMiniflareWorkerOptions), with local state in <persist-to> laid out as
// `wrangler --persist-to` lays it out, so that `wrangler d1 migrations apply --persist-to` and
// the seed prepare the same files.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { Log, LogLevel, Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { bundleTestWorker, TEST_WORKER_DIR } from "./build/test-worker.mjs";

const [port, persistTo] = process.argv.slice(2);
const bundle = TEST_WORKER_DIR;
const origin = `http://localhost:${port}`;

// The Workers tests' bundle (`npm test` makes it once, beside the drill, and says so).
if (!process.env.TEST_WORKER_BUNDLED) bundleTestWorker();

const { workerOptions } = unstable_getMiniflareWorkerOptions("wrangler.toml");
// The bundle's modules, listed: Miniflare's own import walk stops at built-ins it does not know
// (a dynamic `node:sqlite` in a dependency), which workerd provides under nodejs_compat.
const MODULE_TYPES = { ".js": "ESModule", ".wasm": "CompiledWasm" };
const modules = readdirSync(bundle)
  .map((name) => ({ name, type: MODULE_TYPES[name.slice(name.lastIndexOf("."))] }))
  .filter(({ type }) => type)
  // The entry first: workerd runs the first module.
  .sort((a, b) => Number(b.name === "test-app.js") - Number(a.name === "test-app.js"))
  .map(({ name, type }) => ({ type, path: join(bundle, name) }));
const state = (kind) => join(persistTo, "v3", kind);
const miniflare = new Miniflare({
  ...workerOptions,
  name: "career-passport",
  modules,
  modulesRoot: bundle,
  // No outside request for Cloudflare's `request.cf` data (there is no network).
  cf: false,
  bindings: { ...workerOptions.bindings, ENVIRONMENT: "test", APP_URL: origin },
  d1Persist: state("d1"),
  r2Persist: state("r2"),
  durableObjectsPersist: state("do"),
  cachePersist: state("cache"),
  kvPersist: state("kv"),
  host: "127.0.0.1",
  port: Number(port),
  log: new Log(LogLevel.WARN),
});
await miniflare.ready;
console.log(`test-server: ready on ${origin}`);

const stop = async () => {
  await miniflare.dispose();
  process.exit(0);
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
