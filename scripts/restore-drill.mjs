// `npm run restore-drill`: the restore drill of issue 34, run as a disaster would go.
//
//   1. seed and soak: `npm run soak`'s fresh state (migrations, the demo seed and its signed
//      credentials), then its simulated users for DRILL_SOAK_SECONDS (60) in `.wrangler/soak`;
//   2. the daily cron's run, whose last job exports D1 into the backup bucket through the API's
//      stand-in (decision 096); take every table's rows and every R2 object's checksum of that
//      state (the truth);
//   3. `npm run backup` (its d1.sql must be the nightly export's file, byte for byte), then delete
//      the whole state folder (D1, R2, Durable Objects, cache);
//   4. `npm run restore` into the empty folder, and once more to see it refuse a non-empty one;
//   5. find every row and object back: the same tables with the same rows, the same objects with
//      the same bytes; then serve the restored state and check, through the app itself, that each
//      stored credential still verifies on /verify (or reads Revoked, if it was), that each object
//      is served at its /media address with its bytes, and that a demo account still signs in.
//
// Writes bench/restore-drill.md (DRILL_RESULTS), exits 1 if anything did not come back. `npm test`
// runs it with a 20 s soak after its build (`npm run test:restore-drill`). Environment: DRILL_PORT
// (8799), DRILL_SOAK_SECONDS (60), DRILL_RESULTS, DRILL_SKIP_BUILD=1 to reuse build/.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { describeState, listObjects, openState, readD1Exports, readObject, sha256 } from "./backup/local-state.mjs";
import { machine } from "./bench/report.mjs";
import { build, startServer } from "./bench/server.mjs";
import { cookieHeader, signIn } from "./bench/sign-in.mjs";

const config = {
  port: Number(process.env.DRILL_PORT ?? 8799),
  soakSeconds: Number(process.env.DRILL_SOAK_SECONDS ?? 60),
  results: process.env.DRILL_RESULTS ?? "bench/restore-drill.md",
  skipBuild: process.env.DRILL_SKIP_BUILD === "1",
};
const STATE = ".wrangler/soak"; // scripts/soak.mjs's state folder
const BACKUP = ".wrangler/drill-backup";
const SOAK_REPORT = ".wrangler/drill-soak.md";
const SERVER_LOG = ".wrangler/drill.log";
const SOAK_USERS = 50; // the soak's least

const log = (message) => console.log(`[drill] ${message}`);
const timings = {};

/** Runs `step` and keeps its wall time, in seconds, under `name`. */
async function timed(name, step) {
  const started = performance.now();
  try {
    return await step();
  } finally {
    timings[name] = (performance.now() - started) / 1000;
  }
}

/** `npm run <script> -- ...args`, its output shown; returns its exit status and its error output. */
function npmRun(script, args, env = {}) {
  const child = spawnSync("npm", ["run", "--silent", script, "--", ...args], {
    stdio: ["ignore", "inherit", "pipe"],
    env: { ...process.env, ...env },
    encoding: "utf8",
  });
  process.stderr.write(child.stderr);
  return { status: child.status, stderr: child.stderr };
}

/** Every table's rows (sorted, hashed) and every object's bytes (hashed) of the state in `persistTo`. */
async function fingerprint(persistTo) {
  const state = await openState(persistTo);
  try {
    const { results } = await state.db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '_cf_%' ORDER BY name")
      .all();
    const tables = {};
    for (const { name } of results) {
      const rows = await state.db.prepare(`SELECT * FROM "${name.replaceAll('"', '""')}"`).raw();
      const lines = rows.map((row) => JSON.stringify(row)).sort();
      tables[name] = { rows: lines.length, sha256: sha256(lines.join("\n")) };
    }
    const objects = {};
    for (const { key } of await listObjects(state.bucket)) {
      const object = await readObject(state.bucket, key);
      objects[key] = { size: object.bytes.length, sha256: sha256(object.bytes), type: object.httpMetadata.contentType };
    }
    const credentials = (
      await state.db.prepare("SELECT id, revoked_at FROM credentials WHERE json IS NOT NULL ORDER BY id").all()
    ).results.map((row) => ({ id: row.id, revoked: row.revoked_at !== null }));
    return { tables, objects, credentials };
  } finally {
    await state.dispose();
  }
}

/** What differs between the state before the backup and after the restore. */
function compare(before, after) {
  const problems = [];
  for (const [name, table] of Object.entries(before.tables)) {
    const restored = after.tables[name];
    if (!restored) problems.push(`table ${name} is missing`);
    else if (restored.rows !== table.rows) problems.push(`table ${name}: ${restored.rows} rows, had ${table.rows}`);
    else if (restored.sha256 !== table.sha256) problems.push(`table ${name}: the same count, different rows`);
  }
  for (const name of Object.keys(after.tables)) if (!(name in before.tables)) problems.push(`table ${name} appeared`);
  for (const [key, object] of Object.entries(before.objects)) {
    const restored = after.objects[key];
    if (!restored) problems.push(`object ${key} is missing`);
    else if (restored.sha256 !== object.sha256) problems.push(`object ${key}: different bytes`);
    else if (restored.type !== object.type) problems.push(`object ${key}: type ${restored.type}, had ${object.type}`);
  }
  for (const key of Object.keys(after.objects)) if (!(key in before.objects)) problems.push(`object ${key} appeared`);
  return problems;
}

/** The verdict /verify gives the credential's JSON as anyone downloads it. */
async function verifyCredential(origin, id, index) {
  const download = await fetch(`${origin}/credentials/${id}`, { headers: { Accept: "application/ld+json" } });
  if (!download.ok) return `download answered ${download.status}`;
  const form = new FormData();
  form.set("json", await download.text());
  // /verify allows 20 checks a minute per client network (an IPv6 /64): each post comes from its own.
  const headers = { Origin: origin, "cf-connecting-ip": `2001:db8:d7i1:${(index + 1).toString(16)}::1` };
  const response = await fetch(`${origin}/verify`, { method: "POST", headers, body: form });
  const html = (await response.text()).replace(/<!--.*?-->/g, "");
  return /Status: <[^>]+>([A-Za-z]+)</.exec(html)?.[1] ?? `no verdict (${response.status})`;
}

// The demo seed's admin and Alex (db/seed.ts), and the smallest valid PNG (1×1, transparent).
const DEMO_ADMIN = "admin@example.com";
const DEMO_MEMBER = { email: "alex@example.com", id: "5eed0000-0000-4000-8000-000000000002" };
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

/**
 * Writes the drill makes itself, so that what it proves does not hang on what a short soak reached
 * on a busy machine: the demo admin gives Alex an achievement with a picture (an R2 object and the
 * row that points at it), through the dashboard's form as a browser without JavaScript posts it.
 */
async function knownWrites(origin) {
  const cookies = cookieHeader(await signIn(origin, DEMO_ADMIN));
  const formPath = `/dashboard?add=${encodeURIComponent(`give-${DEMO_MEMBER.id}`)}`;
  const page = await (await fetch(origin + formPath, { headers: { Cookie: cookies } })).text();
  const form = new FormData();
  const fields = {
    intent: "give-achievement",
    formId: `give-${DEMO_MEMBER.id}`,
    userId: DEMO_MEMBER.id,
    title: `Restore drill ${new Date().toISOString()}`,
    description: "Given before the backup, to be found after the restore.",
    date: new Date().toISOString().slice(0, 10),
    type: "award",
    submissionKey: /name="submissionKey" value="([^"]+)"/.exec(page)?.[1] ?? "",
  };
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append("media", new Blob([PNG], { type: "image/png" }), "drill.png");
  const response = await fetch(origin + formPath, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: origin, Cookie: cookies },
    body: form,
  });
  if (response.status !== 302) throw new Error(`Giving the drill's achievement answered ${response.status}.`);
}

/** What /verify says of each stored credential, read through the app serving `STATE`. */
async function verdictsOf(origin, credentials) {
  const verdicts = {};
  for (const [index, { id }] of credentials.entries()) verdicts[id] = await verifyCredential(origin, id, index);
  return verdicts;
}

/**
 * The nightly D1 export's settings (workers/d1-export.ts), aimed at the Worker's own stand-in of
 * the API (/dev/cloudflare), which exports the local D1.
 */
const exportSettings = () => ({
  CLOUDFLARE_ACCOUNT_ID: "0123456789abcdef0123456789abcdef",
  D1_DATABASE_ID: "00000000-0000-4000-8000-000000000000",
  D1_EXPORT_API_TOKEN: "restore-drill",
  CLOUDFLARE_API_BASE: `http://localhost:${config.port}/dev/cloudflare`,
});
const DAILY_CRON = "0 3 * * *";

/** Serves `STATE` for the length of `during(origin)`; `scheduled` as startServer takes it. */
async function serving(during, scheduled = null) {
  const server = await startServer(config.port, { persistTo: STATE, logFile: SERVER_LOG, scheduled });
  try {
    return await during(server.origin);
  } finally {
    server.stop();
    // Let workerd let go of the state's files before they are read or deleted.
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** Checks, through the app serving the restored state, what only the app can tell. */
async function checkServed(truth, verdictsBefore) {
  return serving(async (origin) => {
    const problems = [];
    const verdicts = await verdictsOf(origin, truth.credentials);
    for (const { id } of truth.credentials)
      if (verdicts[id] !== verdictsBefore[id])
        problems.push(`credential ${id}: ${verdicts[id]} after the restore, ${verdictsBefore[id]} before`);
    for (const [key, object] of Object.entries(truth.objects)) {
      const response = await fetch(`${origin}/media/${key.split("/").map(encodeURIComponent).join("/")}`);
      const bytes = Buffer.from(await response.arrayBuffer());
      if (!response.ok || sha256(bytes) !== object.sha256)
        problems.push(`GET /media/${key}: ${response.status}, ${bytes.length} bytes not as backed up`);
    }
    try {
      await signIn(origin, DEMO_MEMBER.email);
    } catch (error) {
      problems.push(`sign-in after the restore: ${error.message}`);
    }
    return { problems, verdicts };
  });
}

function report(results) {
  const rows = Object.values(results.truth.tables).reduce((sum, table) => sum + table.rows, 0);
  const bytes = Object.values(results.truth.objects).reduce((sum, object) => sum + object.size, 0);
  const seconds = (name) => `${timings[name]?.toFixed(1) ?? "n/a"} s`;
  return [
    "# Restore drill",
    "",
    'Written by `npm run restore-drill` (scripts/restore-drill.mjs). See docs/operations.md, "Backups and restore".',
    "",
    `- Date: ${results.date}`,
    `- Machine: ${results.machine.os}; ${results.machine.cpus}; ${results.machine.memory}; Node ${results.machine.node}`,
    `- Load average before and after: ${results.loadBefore} / ${results.loadAfter}`,
    `- State: \`npm run soak\`'s (${SOAK_USERS} users for ${config.soakSeconds} s) on the demo seed; its verdict: ${results.soakVerdict}`,
    "",
    "## What was backed up and restored",
    "",
    "| Measure | Value |",
    "| --- | --- |",
    `| D1 tables | ${Object.keys(results.truth.tables).length} |`,
    `| D1 rows | ${rows} |`,
    `| D1 SQL (d1.sql, the same bytes as the nightly export ${results.nightlyKey ?? "(none)"}) | ${results.manifest?.d1.bytes ?? "n/a"} bytes |`,
    `| R2 objects | ${Object.keys(results.truth.objects).length} (${bytes} bytes) |`,
    `| Signed credentials checked on /verify | ${results.truth.credentials.length} (${[...results.verdicts].map(([v, n]) => `${n} ${v}`).join(", ") || "none"}) |`,
    "",
    "## What the soak saw acknowledged (all of it in the backup)",
    "",
    results.soakWrites,
    "",
    "## Time",
    "",
    "| Step | Wall time |",
    "| --- | --- |",
    `| Seed and soak (fresh state, server start, load, checks) | ${seconds("soak")} |`,
    `| The drill's own write and /verify of every credential, before | ${seconds("before")} |`,
    `| \`npm run backup\` | ${seconds("backup")} |`,
    `| \`npm run restore\` (checksums verified before and after) | ${seconds("restore")} |`,
    `| Serving the restored state: credentials, media, sign-in | ${seconds("served")} |`,
    `| The whole drill${config.skipBuild ? " (build reused)" : ", build included"} | ${seconds("total")} |`,
    "",
    "## Verdict",
    "",
    results.problems.length === 0
      ? "PASS: the nightly D1 export's file is the SQL restored, byte for byte; every row of every table and every R2 object came back with the same checksum; every credential verifies as before; the restored state serves its media and signs its people in; a second restore into the filled state was refused."
      : `FAIL: ${results.problems.length} problem(s):`,
    ...results.problems.slice(0, 50).map((problem) => `- ${problem}`),
    "",
  ].join("\n");
}

async function main() {
  const started = performance.now();
  const loadBefore = loadavg()[0].toFixed(2);
  if (!config.skipBuild) build();
  const problems = [];

  log(`seed and soak: ${SOAK_USERS} users for ${config.soakSeconds} s`);
  rmSync(SOAK_REPORT, { force: true });
  const soak = await timed("soak", () =>
    spawnSync("node", ["scripts/soak.mjs"], {
      stdio: "inherit",
      env: {
        ...process.env,
        SOAK_SKIP_BUILD: "1",
        SOAK_SECONDS: String(config.soakSeconds),
        SOAK_USERS: String(SOAK_USERS),
        SOAK_PORT: String(config.port),
        SOAK_RESULTS: SOAK_REPORT,
        // The seed signs the demo credentials for this origin, the one the restored state is served on.
        APP_URL: `http://localhost:${config.port}`,
      },
    }),
  );
  // The soak's own verdict (lost writes, 5xx) is its business and reported here; a soak that could
  // not run leaves nothing to back up.
  if (soak.status === 2 || !existsSync(SOAK_REPORT)) throw new Error("The soak did not run: nothing to back up.");
  const soakReport = readFileSync(SOAK_REPORT, "utf8");
  // The soak's verdict and its first violations, on one line.
  const [verdictLine = "no verdict", ...violations] = (soakReport.split("## Verdict")[1] ?? "").trim().split("\n- ");
  const soakVerdict = [
    verdictLine.replace(/:$/, ""),
    ...violations.slice(0, 3),
    ...(violations.length > 3 ? [`the rest in ${SOAK_REPORT}`] : []),
  ].join("; ");

  const soakWrites =
    /## Acknowledged writes checked against D1 and R2\n\n([\s\S]*?)\n\n## Verdict/.exec(soakReport)?.[1] ?? "(none)";

  log("the drill's own writes, and what /verify says of every credential before the backup");
  const credentialIds = (await fingerprint(STATE)).credentials;
  const verdictsBefore = await timed("before", () =>
    serving(async (origin) => {
      await knownWrites(origin);
      const verdicts = await verdictsOf(origin, credentialIds);
      // Then the night's run, whose last job exports D1 into the backup bucket (decision 096):
      // the file a restore after the database's loss starts from.
      const ran = await fetch(`${origin}/__scheduled?cron=${encodeURIComponent(DAILY_CRON)}`);
      if (!ran.ok) throw new Error(`The daily run answered ${ran.status}: ${await ran.text()}`);
      return verdicts;
    }, exportSettings()),
  );
  const nightly = Object.entries(await readD1Exports(STATE));
  const truth = await fingerprint(STATE);
  if (Object.keys(truth.objects).length === 0) problems.push("inconclusive: no R2 object in the state");
  if (truth.credentials.length === 0) problems.push("inconclusive: no signed credential in the state");
  const unexpected = truth.credentials.filter(
    ({ id, revoked }) => verdictsBefore[id] !== (revoked ? "Revoked" : "Valid"),
  );
  for (const { id } of unexpected) problems.push(`credential ${id} read ${verdictsBefore[id]} before the backup`);

  log("backup");
  rmSync(BACKUP, { recursive: true, force: true });
  const backup = await timed("backup", () => npmRun("backup", ["--persist-to", STATE, "--out", BACKUP]));
  if (backup.status !== 0) throw new Error("npm run backup failed.");
  const manifest = JSON.parse(readFileSync(`${BACKUP}/manifest.json`, "utf8"));
  // The restore below executes d1.sql: the nightly export's file is the same SQL, byte for byte.
  if (nightly.length !== 1)
    problems.push(`the daily run left ${nightly.length} D1 exports in the backup bucket, not 1`);
  else if (nightly[0][1] !== readFileSync(`${BACKUP}/d1.sql`, "utf8"))
    problems.push(`the nightly export ${nightly[0][0]} is not the backup's d1.sql`);

  log(`wipe ${STATE}`);
  rmSync(STATE, { recursive: true, force: true });
  const wiped = await describeState(STATE);
  if (wiped.tables > 0 || wiped.objects > 0) throw new Error(`${STATE} is not empty after the wipe.`);

  log("restore");
  const restore = await timed("restore", () => npmRun("restore", [BACKUP, "--persist-to", STATE]));
  if (restore.status !== 0) problems.push(`npm run restore failed (exit ${restore.status})`);
  const again = npmRun("restore", [BACKUP, "--persist-to", STATE]);
  if (again.status !== 1 || !again.stderr.includes("is not empty"))
    problems.push(`a restore into filled state was not refused (exit ${again.status})`);

  const after = await fingerprint(STATE);
  problems.push(...compare(truth, after));
  log("serve the restored state");
  const served = await timed("served", () => checkServed(truth, verdictsBefore));
  problems.push(...served.problems);
  timings.total = (performance.now() - started) / 1000;

  const results = {
    date: new Date().toISOString(),
    machine: machine(),
    loadBefore,
    loadAfter: loadavg()[0].toFixed(2),
    soakVerdict,
    soakWrites,
    truth,
    manifest,
    nightlyKey: nightly[0]?.[0],
    verdicts: Object.values(served.verdicts).reduce(
      (counts, verdict) => counts.set(verdict, (counts.get(verdict) ?? 0) + 1),
      new Map(),
    ),
    problems,
  };
  const markdown = report(results);
  mkdirSync("bench", { recursive: true });
  writeFileSync(config.results, markdown);
  console.log(`\n${markdown}\nWritten to ${config.results}.`);
  return problems.length === 0;
}

main().then(
  (passed) => process.exit(passed ? 0 : 1),
  (error) => {
    console.error(error);
    process.exit(2);
  },
);
