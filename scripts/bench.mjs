// `npm run bench`: the benchmark of issues 8 and 19. Builds the production bundle, serves it under
// `wrangler dev` with fresh seeded state, and measures the public passport (and the landing page)
// against the budgets: latency next to a static asset, D1 round trips, page weight, web vitals;
// then the signed-in pages people use every day (/dashboard as an organisation admin and as a
// member, /passport, /settings), signed in as the seeded demo accounts: page weight and web vitals;
// then the Worker CPU of checking one of our own credentials on /verify (issue 29), and of what
// wallets ask of 'Add to wallet' (the exchange, OpenID4VCI) and of 'Accept with my wallet', with
// their D1 round trips (issue 31), and of 'Import history' reading and adding a LinkedIn export of
// 500 entries (issue 32).
// And the size of the Worker `wrangler deploy` would upload, against the plan's limit.
// Writes bench/results.md (and bench/bundles.md, the JavaScript per route from the build) and
// exits non-zero when a budget is missed. See README "Benchmark".
//
// Environment: BENCH_PORT (8797), BENCH_SECONDS per load scenario (5), BENCH_RUNS of Chromium
// per page (5), BENCH_SAMPLES of /verify and of the wallet exchange (25), BENCH_HISTORY_SAMPLES of
// 'Import history' (5), BENCH_SKIP_BUILD=1 to
// reuse build/ while iterating on the bench itself, BENCH_VIA=cli to start wrangler by its command
// (DevTools inspector on) instead of its API, BENCH_ONLY=passport to measure only the public
// passport's latency next to the static asset (printed, bench/results.md left as it is).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { bundleReport, routeBundle } from "./bench/bundles.mjs";
import http from "node:http";
import { GZIP_LEVEL, measurePageBytes } from "./bench/bytes.mjs";
import { measureLoad, timedGet } from "./bench/load.mjs";
import { BUDGETS, buildReport, machine } from "./bench/report.mjs";
import { BENCH_PASSPORT } from "./bench/seed.mjs";
import { cookieHeader, DEMO_ACCOUNTS, signIn } from "./bench/sign-in.mjs";
import { build, prepareState, startServer } from "./bench/server.mjs";
import { closestStaticAsset } from "./bench/static-asset.mjs";
import { issueBenchCredential, measureVerify } from "./bench/verify.mjs";
import { measureWalletRequests } from "./bench/wallet.mjs";
import { measureHistoryImport } from "./bench/history-import.mjs";
import { measureImport } from "./bench/import.mjs";
import { THROTTLING, launchBrowser, measureVitals } from "./bench/vitals.mjs";
import { measureWorkerSize } from "./bench/worker-size.mjs";

const config = {
  port: Number(process.env.BENCH_PORT ?? 8797),
  durationMs: Number(process.env.BENCH_SECONDS ?? 5) * 1000,
  vitalsRuns: Number(process.env.BENCH_RUNS ?? 5),
  verifySamples: Number(process.env.BENCH_SAMPLES ?? 25),
  // Each sample adds 500 achievements to the demo member's passport: fewer than the others.
  historySamples: Number(process.env.BENCH_HISTORY_SAMPLES ?? 5),
  connections: [8, 32],
  skipBuild: process.env.BENCH_SKIP_BUILD === "1",
  /**
   * How `wrangler dev` starts: "api" (default: the DevTools inspector off, decision 013) or "cli"
   * (the command, as bench:scale: the inspector's relay adds CPU to every D1 query, decision 040).
   */
  via: process.env.BENCH_VIA === "cli" ? "cli" : "api",
  /** Only the public passport's latency and ratios: a quick check while working on its render. */
  passportOnly: process.env.BENCH_ONLY === "passport",
};
const RESULTS_FILE = "bench/results.md";
const BUNDLES_FILE = "bench/bundles.md";
// The signed-in pages of issue 19: who is signed in, and the Remix route that renders the page.
const SIGNED_IN_PAGES = {
  "Dashboard (organisation admin)": { path: "/dashboard", account: "admin", routeId: "routes/_app.dashboard" },
  "Dashboard (member)": { path: "/dashboard", account: "member", routeId: "routes/_app.dashboard" },
  "Passport (member)": { path: "/passport", account: "member", routeId: "routes/_app.passport._index" },
  "Settings (member)": { path: "/settings", account: "member", routeId: "routes/_app.settings._index" },
};
// What makes a request skip the edge cache of the public passport: a header honoured only outside
// production (a visitor's `Cache-Control: no-cache` is served from the cache, issue 34).
const BYPASS = { "X-Passport-Refresh": "1" };

async function main() {
  // The machine is shared: what else ran is part of every timing (1-, 5- and 15-minute averages).
  const loadBefore = os.loadavg();
  if (!config.skipBuild) build();
  if (config.passportOnly) return passportOnly(loadBefore);
  log("Worker upload size (wrangler deploy --dry-run)");
  const workerSize = measureWorkerSize();
  prepareState(BENCH_PASSPORT);
  const server = await startServer(config.port, { via: config.via });
  try {
    const measured = await measure(server);
    const results = {
      ...measured,
      workerSize,
      via: config.via,
      loadAverage: { before: loadBefore, after: os.loadavg() },
    };
    const { markdown, passed } = buildReport(results);
    mkdirSync("bench", { recursive: true });
    writeFileSync(RESULTS_FILE, markdown);
    writeFileSync(BUNDLES_FILE, bundleReport().markdown);
    console.log(`\n${markdown}\nWritten to ${RESULTS_FILE}.`);
    return passed;
  } finally {
    server.stop();
  }
}

async function measure({ origin, pid }) {
  const { passportPath, passportUrl, first, staticAsset, d1, load } = await measurePassportLoad(origin);

  const pages = { "Public passport": passportUrl, "Landing page": `${origin}/` };
  const bytes = {};
  for (const [page, url] of Object.entries(pages)) {
    log(`page weight: ${page}`);
    bytes[page] = await measurePageBytes(url);
  }

  const sessions = {};
  for (const [account, email] of Object.entries(DEMO_ACCOUNTS)) {
    log(`signing in ${email}`);
    sessions[account] = await signIn(origin, email);
  }
  const lazy = {};
  for (const [page, { path, account, routeId }] of Object.entries(SIGNED_IN_PAGES)) {
    log(`page weight: ${page}`);
    bytes[page] = await measurePageBytes(origin + path, { Cookie: cookieHeader(sessions[account]) });
    lazy[page] = routeBundle(routeId).lazy;
  }

  const browser = await launchBrowser();
  const chromiumVersion = browser.version();
  const vitals = {};
  try {
    for (const [page, url] of Object.entries(pages)) {
      log(`web vitals: ${page}, ${config.vitalsRuns} runs`);
      vitals[page] = await measureVitals(browser, url, config.vitalsRuns);
    }
    for (const [page, { path, account }] of Object.entries(SIGNED_IN_PAGES)) {
      log(`web vitals: ${page}, ${config.vitalsRuns} runs, signed in`);
      vitals[page] = await measureVitals(browser, origin + path, config.vitalsRuns, { cookies: sessions[account] });
    }
  } finally {
    await browser.close();
  }

  // Last, with the browser closed: the Worker's CPU is read one request at a time.
  log(`/verify: one of our own credentials, Worker CPU, ${config.verifySamples} samples`);
  const credential = await issueBenchCredential(origin);
  const verify = await measureVerify({
    origin,
    port: config.port,
    serverPid: pid,
    credential,
    samples: config.verifySamples,
  });
  log(
    `wallets: the exchanges (add, accept) and OpenID4VCI's token, nonce and credential, ${config.verifySamples} samples`,
  );
  const wallet = await measureWalletRequests({
    origin,
    port: config.port,
    serverPid: pid,
    samples: config.verifySamples,
  });
  log("/passport/import: another issuer's credential (did:key), Worker CPU");
  const imported = await measureImport({ origin, port: config.port, serverPid: pid, samples: config.verifySamples });

  log(`'Import history': a LinkedIn export of 500 entries read and added, ${config.historySamples} samples`);
  const historyImport = await measureHistoryImport({
    origin,
    port: config.port,
    serverPid: pid,
    samples: config.historySamples,
  });

  return {
    date: new Date().toISOString(),
    machine: machine(),
    wrangler: `wrangler ${packageVersion("wrangler")}`,
    chromium: `Chromium ${chromiumVersion}`,
    origin,
    passportPath,
    passportAchievements: BENCH_PASSPORT.achievements,
    passportHtmlBytes: first.bytes,
    staticPath: staticAsset.path,
    staticBytes: staticAsset.bytes,
    durationMs: config.durationMs,
    gzipLevel: GZIP_LEVEL,
    throttling: THROTTLING,
    vitalsRuns: config.vitalsRuns,
    load,
    d1,
    bytes,
    vitals,
    verify,
    wallet,
    historyImport,
    imported,
    signedIn: Object.fromEntries(
      Object.entries(SIGNED_IN_PAGES).map(([page, { path, account }]) => [
        page,
        { path, email: DEMO_ACCOUNTS[account] },
      ]),
    ),
    lazy,
  };
}

/** The public passport's latency next to the static asset closest in size, and its D1 round trips. */
async function measurePassportLoad(origin) {
  const passportPath = `/passport/${BENCH_PASSPORT.userId}`;
  const passportUrl = origin + passportPath;
  const first = await timedGet(passportUrl, BYPASS);
  if (first.status !== 200)
    throw new Error(`GET ${passportPath} answered ${first.status}: is the bench passport seeded and public?`);
  const staticAsset = closestStaticAsset(first.bytes);

  log("D1 round trips");
  const d1 = await roundTrips(passportUrl);

  const load = [];
  const targets = [
    { target: "static", url: origin + staticAsset.path },
    { target: "passport cached", url: passportUrl },
    { target: "passport uncached", url: passportUrl, headers: BYPASS },
  ];
  for (const connections of config.connections) {
    for (const { target, url, headers } of targets) {
      log(`load: ${target}, ${connections} connections, ${config.durationMs / 1000} s`);
      load.push({
        target,
        connections,
        result: await measureLoad({ url, headers, connections, durationMs: config.durationMs }),
      });
    }
  }
  return { passportPath, passportUrl, first, staticAsset, d1, load };
}

/** BENCH_ONLY=passport: the latency section alone, printed with its ratios against their budgets. */
async function passportOnly(loadBefore) {
  prepareState(BENCH_PASSPORT);
  const server = await startServer(config.port, { via: config.via });
  try {
    const { first, staticAsset, d1, load } = await measurePassportLoad(server.origin);
    const p50 = (target, connections) =>
      load.find((run) => run.target === target && run.connections === connections).result.p50;
    let passed = true;
    console.log(`\nPassport HTML ${first.bytes} B; static ${staticAsset.path} ${staticAsset.bytes} B`);
    console.log(`D1 round trips: uncached ${d1.uncached.d1}, cached ${d1.cached.d1}`);
    for (const connections of config.connections) {
      const base = p50("static", connections);
      const cached = p50("passport cached", connections) / base;
      const uncached = p50("passport uncached", connections) / base;
      passed &&= cached <= BUDGETS.cachedOverStatic && uncached <= BUDGETS.uncachedOverStatic;
      console.log(
        `${connections} connections: static ${base.toFixed(1)} ms; cached ${cached.toFixed(2)}× ` +
          `(≤ ${BUDGETS.cachedOverStatic}×), uncached ${uncached.toFixed(2)}× (≤ ${BUDGETS.uncachedOverStatic}×)`,
      );
    }
    const loadAfter = os.loadavg();
    console.log(
      `Load average: ${loadBefore.map((v) => v.toFixed(1)).join(", ")} before, ${loadAfter.map((v) => v.toFixed(1)).join(", ")} after`,
    );
    return passed;
  } finally {
    server.stop();
  }
}

/** X-D1-Round-Trips of one uncached request and of one cached request after a warm-up. */
async function roundTrips(passportUrl) {
  const agent = new http.Agent();
  const uncached = await timedGet(passportUrl, BYPASS, agent);
  await timedGet(passportUrl, {}, agent);
  const cached = await timedGet(passportUrl, {}, agent);
  return { uncached, cached };
}

function packageVersion(name) {
  return JSON.parse(readFileSync(`node_modules/${name}/package.json`, "utf8")).version;
}

function log(message) {
  console.log(`[bench] ${message}`);
}

main().then(
  (passed) => process.exit(passed ? 0 : 1),
  (error) => {
    console.error(error);
    process.exit(2);
  },
);
