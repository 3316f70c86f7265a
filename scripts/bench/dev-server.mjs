// `wrangler dev` for measurements: the same local server (wrangler's dev proxy, miniflare, local
// D1/R2/cache), started through wrangler's own API because only the API can leave the DevTools
// inspector off. With the inspector on, wrangler relays the inspector's network events for every
// local D1 call to its Node process (about 4 ms of CPU per query on a 2-CPU machine), a cost of the
// debugging harness that a deployed Worker does not have. See docs/decisions/013.
//
// Usage: node scripts/bench/dev-server.mjs <port> <persist-to> <environment>
import { unstable_startWorker } from "wrangler";

const [port, persistTo, environment] = process.argv.slice(2);
const plain = (value) => ({ type: "plain_text", value });

const worker = await unstable_startWorker({
  config: "wrangler.toml",
  // `development` keeps the diagnostic headers (X-D1-Round-Trips) on, whatever .dev.vars says.
  bindings: { ENVIRONMENT: plain(environment), APP_URL: plain(`http://localhost:${port}`) },
  dev: { inspector: false, persist: persistTo, server: { port: Number(port) }, watch: false, liveReload: false },
});
await worker.ready;
console.log(`dev-server: ready on ${await worker.url}`);

const stop = async () => {
  await worker.dispose();
  process.exit(0);
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
