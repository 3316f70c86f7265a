// The test entry (workers/test-app.ts) bundled once, as `wrangler deploy` bundles a Worker, for the
// Workers tests and Playwright's server (decision 094); `node scripts/build/test-worker.mjs`
// makes it. Vitest's module runner evaluates a file's imports anew for every test file: the test
// entry's graph (Hono, better-auth, drizzle, every service) cost 0.65 s of CPU a file, 6 s for
// the first. Bundled and marked external (vitest.config.ts), workerd loads it itself, once per
// runtime, as it already loads the Remix server bundle.
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { bundleWorker } from "../bench/worker-size.mjs";

export const TEST_WORKER_DIR = "build/test-worker";
export const TEST_WORKER_MAIN = `${TEST_WORKER_DIR}/test-app.js`;

/**
 * Bundles workers/test-app.ts (and the current build/, which it imports) into TEST_WORKER_DIR.
 * Wrangler's `Data` modules (the card's fonts, wrangler.toml's rules) become JavaScript modules
 * that export the same ArrayBuffer: the pool's module loader knows compiled WebAssembly but reads
 * any other file as script.
 */
export function bundleTestWorker() {
  rmSync(TEST_WORKER_DIR, { recursive: true, force: true });
  bundleWorker(TEST_WORKER_DIR, "workers/test-app.ts");
  let main = readFileSync(TEST_WORKER_MAIN, "utf8");
  for (const name of readdirSync(TEST_WORKER_DIR).filter((file) => file.endsWith(".woff"))) {
    const base64 = readFileSync(join(TEST_WORKER_DIR, name)).toString("base64");
    writeFileSync(
      join(TEST_WORKER_DIR, `${name}.js`),
      `export default Uint8Array.from(atob(${JSON.stringify(base64)}), (c) => c.charCodeAt(0)).buffer;\n`,
    );
    main = main.replaceAll(`"./${name}"`, `"./${name}.js"`);
    rmSync(join(TEST_WORKER_DIR, name));
  }
  writeFileSync(TEST_WORKER_MAIN, main);
  // The pool's module loader reads a file's module type from the nearest package.json and keeps the
  // answer for every folder above it: without this one, the project's own ("type": "module") would
  // be kept for the folders above the project, and CommonJS packages met later would be loaded as ES modules. The Remix
  // build has its own for the same reason.
  writeFileSync(join(TEST_WORKER_DIR, "package.json"), `${JSON.stringify({ type: "module" })}\n`);
  // workerd does not read it, and Vitest does not for an external module.
  rmSync(`${TEST_WORKER_MAIN}.map`, { force: true });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) bundleTestWorker();
