// What `wrangler deploy` would upload for the production Worker: the script wrangler bundles from
// workers/app.ts and the current build/ (the Remix server bundle inside it), and the modules it
// carries (the card renderer's WebAssembly, its fonts). Cloudflare refuses a Worker over 3 MB gzip
// on the free plan (10 MB paid), and every byte is parsed at start-up, within a 400 ms budget.
// Read by `wrangler deploy --dry-run --outdir`, which bundles offline and uploads nothing.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

/** The Workers free plan's limit on the upload, gzip; `WORKER_GZIP_LIMIT_KIB` lowers it to try the check. */
export const WORKER_GZIP_LIMIT = Number(process.env.WORKER_GZIP_LIMIT_KIB ?? 3 * 1024) * 1024;

const MAIN_MODULE = "app.js";

/**
 * Bundles a Worker entry into `outdir` as `wrangler deploy` would upload it (its module rules, its
 * Node.js compatibility), offline: wrangler.toml's `main` unless another entry is given.
 */
export function bundleWorker(outdir, entry = null) {
  execFileSync("npx", ["wrangler", "deploy", ...(entry ? [entry] : []), "--dry-run", "--outdir", outdir], {
    stdio: ["ignore", "ignore", "inherit"],
    // Wrangler would otherwise try to send usage metrics: there is no network to send them to.
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  });
}

/**
 * What only the test entry (workers/test-app.ts) may carry: the fault switch's header and log
 * line, the fresh-render header, the D1 counter's headers and the test accounts' route. Found in
 * the production bundle, they mean a production module imported test machinery.
 */
export const TEST_MACHINERY = [
  "X-Inject-Fault",
  "fault injected",
  "X-Passport-Refresh",
  "X-D1-Round-Trips",
  "X-D1-Rows-Read",
  "/__test/",
];

const kib = (bytes) => `${(bytes / 1024).toFixed(2)} KiB`;

/**
 * The upload's size, raw and gzip, and each module's (gzip alone). Measured as wrangler's own "Total Upload"
 * line does: every module's bytes one after another, the main script last, through zlib's gzip at
 * its default level. Wrangler orders the other modules its own way, which moves the gzip total
 * by about 0.2 KiB in 2,300.
 */
export function measureWorkerSize() {
  const outdir = mkdtempSync(join(tmpdir(), "worker-size-"));
  try {
    bundleWorker(outdir);
    const others = readdirSync(outdir)
      .filter((name) => name !== MAIN_MODULE && name !== "README.md" && !name.endsWith(".map"))
      .sort();
    const modules = [...others, MAIN_MODULE].map((name) => {
      const content = readFileSync(join(outdir, name));
      return { name, content, bytes: content.length, gzip: gzipSync(content).length };
    });
    const all = Buffer.concat(modules.map((module) => module.content));
    const text = all.toString("latin1").toLowerCase();
    return {
      testMachinery: TEST_MACHINERY.filter((name) => text.includes(name.toLowerCase())),
      bytes: all.length,
      gzip: gzipSync(all).length,
      // Largest first; wrangler names a module it copies by its content hash and its file name.
      modules: modules
        .map(({ name, bytes, gzip }) => ({ name: name.replace(/^[0-9a-f]{40}-/, ""), bytes, gzip }))
        .sort((a, b) => b.gzip - a.gzip),
    };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/** One line for a person: the total against the limit. */
export function describeWorkerSize(size) {
  return `Worker upload: ${kib(size.bytes)} / gzip: ${kib(size.gzip)} (limit ${kib(WORKER_GZIP_LIMIT)} gzip)`;
}

/** The modules, largest first, each raw and gzip alone, for a person to see what fills the upload. */
export function describeWorkerModules(size) {
  return size.modules.map((module) => `${module.name}: ${kib(module.bytes)} / gzip: ${kib(module.gzip)}`);
}
