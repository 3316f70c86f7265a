// `npm run worker-size` (part of `npm test`, after the build): prints what `wrangler deploy` would
// upload for the production Worker and exits 1 when it passes the Workers free plan's 3 MB gzip,
// so a dependency that would stop the Worker deploying fails here, not at deployment.
// And it fails when the production bundle carries test machinery (the fault switch, the
// fresh-render header, the D1 counter): those live in the test entry, workers/test-app.ts.
// Build first (`npm run build`): the Remix server bundle is part of the Worker.
import {
  describeWorkerModules,
  describeWorkerSize,
  measureWorkerSize,
  WORKER_GZIP_LIMIT,
} from "./bench/worker-size.mjs";

const size = measureWorkerSize();
console.log(describeWorkerSize(size));
for (const line of describeWorkerModules(size)) console.log(`  ${line}`);
if (size.gzip > WORKER_GZIP_LIMIT) {
  console.error(
    `The Worker is over the limit by ${((size.gzip - WORKER_GZIP_LIMIT) / 1024).toFixed(2)} KiB gzip: ` +
      "Cloudflare would refuse to deploy it on the free plan. Look at what the last change added to the server bundle.",
  );
  process.exit(1);
}
if (size.testMachinery.length > 0) {
  console.error(
    `The production Worker carries test machinery (${size.testMachinery.join(", ")}): ` +
      "a module workers/app.ts imports reaches workers/testing/. Only workers/test-app.ts may.",
  );
  process.exit(1);
}
console.log("No test machinery in the production Worker.");
