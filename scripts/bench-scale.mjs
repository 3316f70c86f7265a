// `npm run bench:scale`: the scale benchmark of issue 18. Builds the production bundle, seeds an
// organisation at 1000x the demo (scripts/bench/scale-seed.mjs) into fresh local state, serves it
// under `wrangler dev` and measures the admin's and a member's heaviest requests: latency next to
// a static asset, D1 round trips (X-D1-Round-Trips) and rows read (X-D1-Rows-Read, both sent
// outside production only). Writes bench/scale.md and exits 1 when a budget is missed (and says
// which), 2 when the run itself failed. Not part of `npm test`.
//
// Environment: BENCH_PORT (8811), BENCH_SAMPLES rounds (25: each page once, the static asset twice),
// BENCH_GIVES (20 achievements given), BENCH_SKIP_BUILD=1 to reuse build/,
// BENCH_SKIP_SEED=1 to reuse the seeded state in .wrangler/bench-scale.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { percentile } from "./bench/load.mjs";
import { machine } from "./bench/report.mjs";
import { cookieHeader, signIn } from "./bench/sign-in.mjs";
import {
  BENCH_PERSON,
  DEMO_ORGANISATION_ID,
  DIRECTORY_SEARCH,
  MEMBER_SEARCH,
  memberId,
  SCALE,
  scaleSeedStatements,
} from "./bench/scale-seed.mjs";
import { build, freshState, queryD1, startServer } from "./bench/server.mjs";
import { closestStaticAsset } from "./bench/static-asset.mjs";

const config = {
  port: Number(process.env.BENCH_PORT ?? 8811),
  /** Rounds: requests per page, one at a time (after a warm-up); the static asset twice a round. */
  samples: Number(process.env.BENCH_SAMPLES ?? 25),
  gives: Number(process.env.BENCH_GIVES ?? 20),
  skipBuild: process.env.BENCH_SKIP_BUILD === "1",
  skipSeed: process.env.BENCH_SKIP_SEED === "1",
  /** How `wrangler dev` starts: "api" (inspector off, decision 013; default) or "cli" (the command). */
  via: process.env.BENCH_VIA === "cli" ? "cli" : "api",
};
const PERSIST_TO = ".wrangler/bench-scale";
const LOG_FILE = ".wrangler/bench-scale.log";
const RESULTS_FILE = "bench/scale.md";
const DEMO_ADMIN_EMAIL = "admin@example.com";

// The budgets of issue 18.
const BUDGETS = {
  /** Every page's p50 at most this many times the static asset's p50, measured in the same run. */
  p50VersusStatic: 3,
  /** D1 round trips of any page, and of giving an achievement. */
  pageRoundTrips: 2,
  giveRoundTrips: 2,
};

async function main() {
  const started = performance.now();
  if (!config.skipBuild) build();
  let seedSeconds = null;
  if (!config.skipSeed || !existsSync(PERSIST_TO)) seedSeconds = await seed();
  const world = describeWorld();
  const server = await startServer(config.port, { persistTo: PERSIST_TO, logFile: LOG_FILE, via: config.via });
  try {
    const results = await measure(server.origin, world);
    const checks = budgetChecks(results, world);
    const markdown = report({
      results,
      world,
      checks,
      seedSeconds,
      totalSeconds: (performance.now() - started) / 1000,
    });
    mkdirSync("bench", { recursive: true });
    writeFileSync(RESULTS_FILE, markdown);
    console.log(`\n${markdown}\nWritten to ${RESULTS_FILE}.`);
    const missed = checks.filter((check) => !check.passed);
    for (const check of missed)
      console.error(`Budget missed: ${check.name}: ${check.measured} (budget ${check.budget})`);
    return missed.length === 0;
  } finally {
    server.stop();
  }
}

/**
 * Fresh state (migrations and the demo seed, through wrangler), then the scale world in one bulk
 * SQL transaction written by the sqlite3 shell straight into the SQLite file behind the local D1.
 * Through workerd it cannot be done: this workerd crashes ("HashIndex detected hash table
 * inconsistency", then a segfault) once a local D1's write-ahead log passes about 4 MB in one
 * process, and one `wrangler d1 execute` per megabyte took longer with every file (20 s by the
 * seventh). The file is plain SQLite; nothing else has it open while the bench seeds.
 */
async function seed() {
  const seedStarted = performance.now();
  try {
    execFileSync("sqlite3", ["-version"], { stdio: "ignore" });
  } catch {
    throw new Error("The scale benchmark seeds with the sqlite3 shell, which is missing: apt-get install -y sqlite3");
  }
  freshState(PERSIST_TO);
  const folder = join(PERSIST_TO, "v3", "d1", "miniflare-D1DatabaseObject");
  const databases = readdirSync(folder).filter((name) => name.endsWith(".sqlite"));
  if (databases.length !== 1) throw new Error(`Expected one local D1 database in ${folder}, found ${databases.length}`);
  const file = join(PERSIST_TO, "scale-seed.sql");
  writeFileSync(file, ["BEGIN;", ...scaleSeedStatements(), "COMMIT;", ""].join("\n"));
  log(`seeding ${SCALE.approvedMembers} members and ${SCALE.achievements} achievements from ${file}`);
  execFileSync("sqlite3", ["-bail", join(folder, databases[0]), `.read ${file}`], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  const seconds = (performance.now() - seedStarted) / 1000;
  log(`seeded in ${seconds.toFixed(0)} s`);
  return seconds;
}

/** What the seeded database holds, counted by D1 itself: the figures the analytics budget is stated in. */
function describeWorld() {
  const day = 24 * 60 * 60 * 1000;
  const now = Date.now();
  const org = `'${DEMO_ORGANISATION_ID}'`;
  const [row] = queryD1(
    `select
      (select count(*) from organization_members where organization_id = ${org} and status = 'approved') as approved,
      (select count(*) from organization_members where organization_id = ${org} and status = 'pending') as pending,
      (select count(*) from achievements where organization_id = ${org}) as orgAchievements,
      (select count(*) from achievements where organization_id = ${org} and created_at >= ${now - 365 * day}) as last365,
      (select count(*) from achievements where organization_id = ${org} and created_at >= ${now - 730 * day}) as last730,
      (select count(*) from recognition_days where organization_id = ${org} and day >= ${Math.floor(now / day) - 730}) as rollupRows730,
      (select count(*) from achievements where user_id = '${BENCH_PERSON.id}' and status = 'accepted') as personAccepted,
      (select count(*) from organizations) as organisations`,
    PERSIST_TO,
  );
  return row;
}

async function measure(origin, world) {
  const admin = { Cookie: cookieHeader(await signIn(origin, DEMO_ADMIN_EMAIL)) };
  const person = { Cookie: cookieHeader(await signIn(origin, BENCH_PERSON.email)) };

  const dashboard = await probe(`${origin}/dashboard?range=365`, admin);
  if (!dashboard.html.includes("Team Members"))
    throw new Error("The admin's dashboard shows no Team Members: is the demo admin's organisation active?");
  log("finding Team Members page 50 by following its Next links");
  const membersPage50 = await followNext(`${origin}/dashboard`, admin, "members.after", 49);
  log("finding the full passport's page 10");
  const passportFirst = `${origin}/passport/${BENCH_PERSON.id}?all=1`;
  const passportPage10 = await followNext(passportFirst, {}, null, 9);
  // The issue asks for page 10 of the paged full passport; ?all=1 alone is its first page.
  if (passportPage10.pages !== 10)
    throw new Error(`The full passport has no page 10 (${passportPage10.pages} pages found by following Next)`);
  // A fresh render, never stored: honoured outside production only (issue 34).
  const fresh = { "X-Passport-Refresh": "1" };

  const pages = [
    // What any Worker-rendered page costs here before it reads anything: the floor under the rest.
    { name: "Terms page (rendered, no D1: the Worker's floor)", url: `${origin}/terms`, headers: {}, reference: true },
    {
      name: "Admin dashboard (Team Members page 1, analytics 365 days)",
      url: `${origin}/dashboard?range=365`,
      headers: admin,
    },
    { name: "Admin dashboard, analytics 7 days", url: `${origin}/dashboard?range=7`, headers: admin, reference: true },
    {
      name:
        membersPage50.pages === 50
          ? "Team Members page 50"
          : `Team Members page ${membersPage50.pages} (no further Next link)`,
      url: membersPage50.url,
      headers: admin,
    },
    {
      name: `Member search ("${MEMBER_SEARCH}")`,
      url: `${origin}/dashboard?members.q=${MEMBER_SEARCH}`,
      headers: admin,
    },
    {
      name: `Organisation directory search ("${DIRECTORY_SEARCH}")`,
      url: `${origin}/dashboard?q=${DIRECTORY_SEARCH}`,
      headers: person,
    },
    {
      name: "Full passport page 10 (rendered, not from the edge cache)",
      url: passportPage10.url,
      headers: fresh,
    },
  ];
  const staticAsset = closestStaticAsset(dashboard.bytes);
  const results = {
    date: new Date().toISOString(),
    machine: machine(),
    loadAverage: os.loadavg(),
    origin,
    staticAsset,
    pages: [],
    give: null,
  };

  // The static asset is requested exactly as the pages are (the same client, one at a time), so
  // that the ratio compares what the server does, not two ways of measuring it. And in rounds:
  // each round requests every page once and the static asset before and after them, so that a
  // page and the asset it is compared with share the same seconds of a shared machine's load
  // (measured one after the other, the ratio moved from 2.7x to 3.5x between runs as the load
  // did: decision 051).
  const rounds = config.samples;
  log(`${rounds} rounds: the static asset twice and each of ${pages.length} pages once, after one warm-up`);
  const staticTarget = { url: origin + staticAsset.path, headers: {} };
  const staticProbes = [];
  const pageProbes = pages.map(() => []);
  for (const target of [staticTarget, ...pages]) await probe(target.url, target.headers);
  for (let round = 0; round < rounds; round++) {
    staticProbes.push(await probe(staticTarget.url, staticTarget.headers));
    // One request at a time: D1 serves one query at a time, so concurrent requests to a page
    // that reads for seconds would only measure the queue in front of it.
    for (const [index, page] of pages.entries()) pageProbes[index].push(await probe(page.url, page.headers));
    staticProbes.push(await probe(staticTarget.url, staticTarget.headers));
  }
  results.static = summarize(staticTarget.url, staticProbes);
  for (const [index, page] of pages.entries())
    results.pages.push({ ...page, path: page.url.slice(origin.length), ...summarize(page.url, pageProbes[index]) });
  log(`giving ${config.gives} achievements, one at a time`);
  results.give = await giveAchievements(origin, admin, world);
  return results;
}

/** The latency and D1 figures of one target's requests. */
function summarize(url, probes) {
  const failed = probes.filter((answer) => answer.status !== 200);
  if (failed.length) throw new Error(`${url} answered ${failed.map((answer) => answer.status)}`);
  const sorted = (values) => values.sort((a, b) => a - b);
  const latencies = sorted(probes.map((answer) => answer.ms));
  return {
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    d1Ms: percentile(sorted(probes.map((answer) => answer.d1Ms)), 50),
    // The static asset is answered before the Worker: it reports no D1 figures, and reads nothing.
    roundTrips: Math.max(...probes.map((answer) => answer.roundTrips || 0)),
    rowsRead: Math.max(...probes.map((answer) => answer.rowsRead || 0)),
  };
}

/** One request, timed, with the page and the D1 figures the Worker reported. */
async function probe(url, headers) {
  const started = performance.now();
  const response = await fetch(url, { headers, redirect: "manual" });
  const html = await response.text();
  return {
    ms: performance.now() - started,
    status: response.status,
    html,
    bytes: Buffer.byteLength(html),
    roundTrips: Number(response.headers.get("X-D1-Round-Trips") ?? NaN),
    rowsRead: Number(response.headers.get("X-D1-Rows-Read") ?? NaN),
    d1Ms: d1WaitOf(response),
  };
}

/** The ms the Worker waited for D1, from its `Server-Timing: d1;dur=…` (sent outside production). */
function d1WaitOf(response) {
  const match = /(?:^|,)\s*d1;dur=([\d.]+)/.exec(response.headers.get("Server-Timing") ?? "");
  return match ? Number(match[1]) : NaN;
}

/**
 * Follows a list's Next link up to `times` times, as a reader paging forward would: the link
 * labelled Next on the same path whose `param` (e.g. `members.after`; null: any) changed, since
 * the other lists' Next links on the page keep this list's place. Stops early when there is no
 * further page, and says how far it got.
 */
async function followNext(url, headers, param, times) {
  let current = url;
  let pages = 1;
  for (let i = 0; i < times; i++) {
    const { html, status } = await probe(current, headers);
    if (status !== 200) throw new Error(`${current} answered ${status}`);
    const here = new URL(current);
    const next = [...html.matchAll(/<a\b[^>]*href="([^"]+)"[^>]*>((?:(?!<\/a>)[\s\S])*?)<\/a>/g)]
      .filter(([, , text]) => /\bNext\b/.test(text))
      .map(([, href]) => new URL(href.replaceAll("&amp;", "&"), current))
      .find(
        (link) =>
          link.pathname === here.pathname &&
          (param === null
            ? link.search !== here.search
            : link.searchParams.has(param) && link.searchParams.get(param) !== here.searchParams.get(param)),
      );
    if (!next) break;
    current = next.href;
    pages++;
  }
  return { url: current, pages };
}

/**
 * Gives achievements to members one after another through the dashboard's form (the same POST a
 * browser sends without JavaScript), each to a different member.
 */
async function giveAchievements(origin, admin, world) {
  const samples = [];
  const today = new Date().toISOString().slice(0, 10);
  for (let n = 0; n < config.gives; n++) {
    const started = performance.now();
    const response = await fetch(`${origin}/dashboard`, {
      method: "POST",
      headers: { ...admin, "Content-Type": "application/x-www-form-urlencoded", Origin: origin },
      body: new URLSearchParams({
        intent: "give-achievement",
        userId: memberId(1 + ((n * 997) % world.approved)),
        title: `Scale benchmark award ${n + 1}`,
        description: "Given by the scale benchmark.",
        date: today,
        type: "award",
      }),
      redirect: "manual",
    });
    await response.arrayBuffer();
    samples.push({
      ms: performance.now() - started,
      status: response.status,
      roundTrips: Number(response.headers.get("X-D1-Round-Trips") ?? NaN),
      rowsRead: Number(response.headers.get("X-D1-Rows-Read") ?? NaN),
      d1Ms: d1WaitOf(response),
    });
  }
  const failed = samples.filter((sample) => sample.status !== 302);
  if (failed.length) throw new Error(`Giving an achievement answered ${failed.map((sample) => sample.status)}`);
  const latencies = samples.map((sample) => sample.ms).sort((a, b) => a - b);
  return {
    count: samples.length,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    roundTrips: Math.max(...samples.map((sample) => sample.roundTrips)),
    rowsRead: Math.max(...samples.map((sample) => sample.rowsRead)),
    d1Ms: percentile(
      samples.map((sample) => sample.d1Ms).sort((a, b) => a - b),
      50,
    ),
  };
}

/**
 * The analytics budget, "rows read bounded by indexes" (decision 037): the 365-day dashboard
 * reads the `recognition_days` rollup, one row per day and giver, never the achievements. Each
 * rollup row of the last 730 days may be read by the four figures that cover it and once more by
 * each of the three that group (D1 counts the sort): 8 per row. 'Needs recognition' counts its
 * qualifying members through an index range (at most every approved member), and 1,000 more are
 * for the pages' own rows. A query over the organisation's achievements would read far more.
 */
const analyticsRowBound = (world) => 8 * world.rollupRows730 + world.approved + 1_000;

function budgetChecks(results, world) {
  const checks = [];
  const staticP50 = results.static.p50;
  for (const page of results.pages) {
    if (page.reference) continue;
    checks.push({
      name: `${page.name}: p50 within ${BUDGETS.p50VersusStatic}x of the static asset`,
      measured: `${page.p50.toFixed(1)} ms = ${(page.p50 / staticP50).toFixed(1)}x`,
      budget: `<= ${(BUDGETS.p50VersusStatic * staticP50).toFixed(1)} ms`,
      passed: page.p50 <= BUDGETS.p50VersusStatic * staticP50,
    });
    checks.push({
      name: `${page.name}: D1 round trips`,
      measured: String(page.roundTrips),
      budget: `<= ${BUDGETS.pageRoundTrips}`,
      passed: page.roundTrips <= BUDGETS.pageRoundTrips,
    });
  }
  const dashboard = results.pages.find((page) => !page.reference);
  checks.push({
    name: "Admin dashboard (365 days): D1 rows read bounded by indexes",
    measured: Number.isFinite(dashboard.rowsRead) ? dashboard.rowsRead.toLocaleString("en-GB") : "not reported",
    budget: `<= ${analyticsRowBound(world).toLocaleString("en-GB")}`,
    passed:
      Number.isFinite(dashboard.rowsRead) && dashboard.rowsRead > 0 && dashboard.rowsRead <= analyticsRowBound(world),
  });
  checks.push({
    name: "Giving one achievement: D1 round trips",
    measured: String(results.give.roundTrips),
    budget: `<= ${BUDGETS.giveRoundTrips}`,
    passed: results.give.roundTrips <= BUDGETS.giveRoundTrips,
  });
  return checks;
}

function report({ results, world, checks, seedSeconds, totalSeconds }) {
  const ms = (value) => (Number.isFinite(value) ? value.toFixed(1) : "n/a");
  const count = (value) => (Number.isFinite(value) ? value.toLocaleString("en-GB") : "n/a");
  const { machine: box } = results;
  const lines = [
    "# Scale benchmark results",
    "",
    `Generated by \`npm run bench:scale\` (scripts/bench-scale.mjs) on ${results.date}, against the production`,
    `build under the \`wrangler ${packageVersion("wrangler")} dev\` ${config.via === "cli" ? "command (DevTools inspector on)" : "API (inspector off)"} with local D1: each page ${config.samples} requests one at a`,
    `time in ${config.samples} rounds after a warm-up, the static asset twice a round (before and after the pages). Timings are one run on a`,
    `2-core machine (load average ${results.loadAverage.map((load) => load.toFixed(2)).join(", ")} before it); the D1 figures do not depend on it.`,
    "",
    `Machine: ${box.os}, ${box.cpus}, ${box.memory}, Node ${box.node}.`,
    "",
    "## The seeded world",
    "",
    `| | |`,
    `| --- | --- |`,
    `| Approved members of the organisation | ${count(world.approved)} |`,
    `| Pending requests | ${count(world.pending)} |`,
    `| Achievements the organisation gave (3 years) | ${count(world.orgAchievements)} |`,
    `| of which in the last 365 / 730 days | ${count(world.last365)} / ${count(world.last730)} |`,
    `| Rows of the recognition_days rollup in the last 730 days | ${count(world.rollupRows730)} |`,
    `| The person's accepted achievements | ${count(world.personAccepted)} |`,
    `| Organisations in the directory | ${count(world.organisations)} |`,
    `| Seed time (migrations and demo seed through wrangler, then bulk SQL) | ${seedSeconds === null ? "reused" : `${seedSeconds.toFixed(0)} s`} |`,
    `| Whole run | ${totalSeconds.toFixed(0)} s |`,
    "",
    "## Requests",
    "",
    "| Request | p50 ms | p95 ms | p50 / static | D1 wait p50 ms | D1 round trips | D1 rows read |",
    "| --- | --: | --: | --: | --: | --: | --: |",
    `| Static asset \`${results.staticAsset.path}\` (${count(results.staticAsset.bytes)} B) | ${ms(results.static.p50)} | ${ms(results.static.p95)} | 1.0 | 0 | 0 | 0 |`,
    ...results.pages.map(
      (page) =>
        `| ${page.name} \`${page.path.length > 60 ? `${page.path.slice(0, 57)}...` : page.path}\` | ${ms(page.p50)} | ${ms(page.p95)} | ${(page.p50 / results.static.p50).toFixed(1)} | ${ms(page.d1Ms)} | ${page.roundTrips} | ${count(page.rowsRead)} |`,
    ),
    `| Giving one achievement (POST /dashboard, ${results.give.count} in a row) | ${ms(results.give.p50)} | ${ms(results.give.p95)} | | ${ms(results.give.d1Ms)} | ${results.give.roundTrips} | ${count(results.give.rowsRead)} |`,
    "",
    "Round trips and rows read are the largest over a page's requests (and over every give), from the",
    "`X-D1-Round-Trips` and `X-D1-Rows-Read` headers the Worker sends outside production. Rows read",
    "is D1's own `rows_read` (what D1 bills), summed over the request's queries. D1 wait is the time",
    "the Worker waited for D1's answers (its `Server-Timing: d1`): the rest of a page's time is the",
    "Worker's own work (rendering above all) and the dev server's, which the Terms page shows alone.",
    ...floorNote(results),
    "",
    "## Budgets",
    "",
    "| Budget | Measured | Budget | |",
    "| --- | --: | --: | --- |",
    ...checks.map(
      (check) => `| ${check.name} | ${check.measured} | ${check.budget} | ${check.passed ? "pass" : "**MISSED**"} |`,
    ),
    "",
    `The analytics bound does not depend on how many achievements were given: 8 x ${count(world.rollupRows730)} rows of the`,
    "`recognition_days` rollup in the last 730 days (one per day and giver; each read by the four figures covering it, and",
    `again by the three that group), + ${count(world.approved)} approved members (the 'needs recognition' count's index`,
    "range, at most all of them) + 1,000 for the pages' own rows (decision 037).",
    "",
  ];
  return lines.join("\n");
}

/**
 * What the floor row says of the latency budget: a page rendered by the Worker that reads
 * nothing, next to the static asset (which wrangler's asset server answers without the Worker).
 */
function floorNote(results) {
  const floor = results.pages.find((page) => page.reference && page.roundTrips === 0);
  if (!floor) return [];
  const ratio = floor.p50 / results.static.p50;
  return [
    "",
    ratio > BUDGETS.p50VersusStatic
      ? `The floor is ${ratio.toFixed(1)}x the static asset in this run: under \`wrangler dev\` no page the Worker renders meets the ${BUDGETS.p50VersusStatic}x budget, whatever it reads.`
      : `The floor is ${ratio.toFixed(1)}x the static asset in this run, within the ${BUDGETS.p50VersusStatic}x budget.`,
  ];
}

function packageVersion(name) {
  return JSON.parse(readFileSync(`node_modules/${name}/package.json`, "utf8")).version;
}

function log(message) {
  console.log(`[bench:scale] ${message}`);
}

main().then(
  (passed) => process.exit(passed ? 0 : 1),
  (error) => {
    console.error(error);
    process.exit(2);
  },
);
