// The local state that `wrangler dev` keeps (`.wrangler/state`, or a `--persist-to` folder): its D1
// database and its R2 bucket, opened with Miniflare as wrangler's own commands open them. Shared by
// `npm run backup`, `npm run restore` and the restore drill (docs/decisions/075).
//
// D1 is exported with the statement `wrangler d1 export --local` runs (`PRAGMA miniflare_d1_export`
// in a Miniflare over the same files), because that command only reads `.wrangler/state` and has
// no `--persist-to` (wrangler 4.63): the same statements, ordered so that they import (exportD1).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { Miniflare } from "miniflare";
import { unstable_readConfig } from "wrangler";

export const DEFAULT_PERSIST_TO = ".wrangler/state";
export const MANIFEST = "manifest.json";
export const FORMAT = { name: "career-passport-backup", version: 1 };
/** Folders of the local state that a restore replaces: D1, R2, and the cache of pages built from them. */
const RESTORED_PARTS = ["d1", "r2", "cache"];

export const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");

/** wrangler.toml's D1 database and R2 bucket (the app has one of each). */
export function bindings() {
  const config = unstable_readConfig({ config: "wrangler.toml" });
  const [database] = config.d1_databases;
  const [bucket] = config.r2_buckets;
  if (!database || !bucket) throw new Error("wrangler.toml names no D1 database or no R2 bucket.");
  return {
    d1: {
      binding: database.binding,
      name: database.database_name,
      id: database.preview_database_id ?? database.database_id,
    },
    r2: { binding: bucket.binding, name: bucket.bucket_name },
  };
}

/** Opens the local D1 and R2 in `persistTo`; `dispose()` lets go of their files. */
export async function openState(persistTo) {
  const { d1, r2 } = bindings();
  const mf = new Miniflare({
    modules: true,
    script: "export default { fetch() { return new Response(null, { status: 404 }); } }",
    d1Databases: { DB: d1.id },
    d1Persist: join(persistTo, "v3", "d1"),
    r2Buckets: { MEDIA: r2.name },
    r2Persist: join(persistTo, "v3", "r2"),
  });
  const db = await mf.getD1Database("DB");
  const bucket = await mf.getR2Bucket("MEDIA");
  return { db, bucket, bindings: { d1, r2 }, dispose: () => mf.dispose() };
}

/**
 * The nightly D1 exports (workers/d1-export.ts) in the local backup bucket of `persistTo`, each
 * key with its SQL.
 */
export async function readD1Exports(persistTo) {
  const config = unstable_readConfig({ config: "wrangler.toml" });
  const backup = config.r2_buckets.find((bucket) => bucket.binding === "MEDIA_BACKUP");
  if (!backup) throw new Error("wrangler.toml names no MEDIA_BACKUP bucket.");
  const mf = new Miniflare({
    modules: true,
    script: "export default { fetch() { return new Response(null, { status: 404 }); } }",
    r2Buckets: { MEDIA_BACKUP: backup.bucket_name },
    r2Persist: join(persistTo, "v3", "r2"),
  });
  try {
    const bucket = await mf.getR2Bucket("MEDIA_BACKUP");
    const exports = {};
    for (const { key } of (await bucket.list({ prefix: "d1-exports/" })).objects) {
      exports[key] = await (await bucket.get(key)).text();
    }
    return exports;
  } finally {
    await mf.dispose();
  }
}

/**
 * The whole database as SQL: every table, then every row, then indexes and triggers (so a restore
 * fires no trigger). The export writes each table's rows right after that table, in the order the
 * tables were created; a table rebuilt by a migration (users, achievements) comes after tables
 * whose foreign keys name it, and SQLite refuses a row whose parent table does not exist yet, even
 * with foreign keys deferred. So its statements (one per element) are kept, tables moved first.
 */
export async function exportD1(db) {
  const [statements] = await db.prepare("PRAGMA miniflare_d1_export(?,?,?);").bind(false, false).raw();
  const isTable = (statement) => /^CREATE TABLE /i.test(statement);
  const [pragma, ...rest] = statements;
  return [pragma, ...rest.filter(isTable), ...rest.filter((statement) => !isTable(statement))].join("\n");
}

/** The app's tables (not SQLite's or Cloudflare's own), and each one's rows. */
export async function tableCounts(db) {
  const { results } = await db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY name",
    )
    .all();
  const counts = {};
  for (const { name } of results) {
    const row = await db.prepare(`SELECT count(*) AS n FROM "${name.replaceAll('"', '""')}"`).first();
    counts[name] = row.n;
  }
  return counts;
}

/** Every object of the bucket, listing page by page (key, size, etag, upload time). */
export async function listObjects(bucket) {
  const objects = [];
  let cursor;
  do {
    const page = await bucket.list({ cursor, limit: 1000, include: ["httpMetadata", "customMetadata"] });
    objects.push(...page.objects);
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return objects;
}

/** One object's bytes and metadata, as the app stored them. */
export async function readObject(bucket, key) {
  const object = await bucket.get(key);
  if (!object) return null;
  const bytes = Buffer.from(await object.arrayBuffer());
  return { bytes, httpMetadata: object.httpMetadata ?? {}, customMetadata: object.customMetadata ?? {} };
}

/** Whether the local state holds anything: tables in D1 or objects in R2. */
export async function describeState(persistTo) {
  if (!existsSync(join(persistTo, "v3"))) return { tables: 0, objects: 0 };
  const state = await openState(persistTo);
  try {
    const tables = Object.keys(await tableCounts(state.db)).length;
    const { objects } = await state.bucket.list({ limit: 1 });
    return { tables, objects: objects.length };
  } finally {
    await state.dispose();
  }
}

/**
 * Processes other than this one holding the state's D1 or R2 files open: a server (`npm start`,
 * `wrangler dev`) serving it. Read from Linux's /proc; elsewhere none are found, and the backup's
 * before-and-after comparison is what stands.
 */
function processesUsing(persistTo) {
  const root = resolve(persistTo, "v3");
  const parts = [`${root}/d1/`, `${root}/r2/`];
  let pids;
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid);
  } catch {
    return [];
  }
  const found = [];
  for (const pid of pids) {
    let fds;
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // Ended, or another user's.
    }
    const holds = fds.some((fd) => {
      try {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
        return parts.some((part) => target.startsWith(part));
      } catch {
        return false;
      }
    });
    if (holds) found.push(`${pid} (${readFileSync(`/proc/${pid}/comm`, "utf8").trim()})`);
  }
  return found;
}

/**
 * Waits a few seconds for any server using the state to let go of it (one just stopped), then
 * refuses: reading the local D1 beside a server that writes to it can fail the server's writes
 * ("database is locked"), and a restore beneath it would pull its files away.
 */
export async function requireNobodyUsing(persistTo, waitMs = 5000) {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const using = processesUsing(persistTo);
    if (using.length === 0) return;
    if (Date.now() >= deadline)
      throw new Error(
        `A server is using ${persistTo} (process ${using.join(", ")}): stop it (npm start, npm run dev, ` +
          "wrangler dev) first. Beside a running server, a backup can make its writes fail " +
          '("database is locked") and a restore would change its files beneath it.',
      );
    await new Promise((done) => setTimeout(done, 250));
  }
}

/** Deletes the local D1, R2 and page cache in `persistTo` (Durable Objects' folders are left alone). */
export function wipeState(persistTo) {
  for (const part of RESTORED_PARTS) rmSync(join(persistTo, "v3", part), { recursive: true, force: true });
}

/** Runs a SQL file against the local D1 in `persistTo`, as `wrangler d1 execute --local --file` does. */
export function executeSqlFile(file, persistTo) {
  const args = ["wrangler", "d1", "execute", bindings().d1.binding, "--local", "--persist-to", persistTo];
  execFileSync("npx", [...args, "--file", resolve(file), "--yes"], {
    stdio: ["ignore", "ignore", "inherit"],
    // CI=1: no interactive question; no metrics to send (there is no network).
    env: { ...process.env, CI: "1", WRANGLER_SEND_METRICS: "false" },
  });
}

/** `--name value` options and the other arguments of a command line. */
export function parseArguments(argv, known) {
  const options = {};
  const positional = [];
  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i];
    if (!argument.startsWith("--")) positional.push(argument);
    else {
      const [name, inline] = argument.slice(2).split(/=(.*)/s, 2);
      if (!(name in known)) throw new Error(`Unknown option --${name}. Options: ${Object.keys(known).join(", ")}.`);
      if (known[name] === "flag") options[name] = true;
      else if (inline !== undefined) options[name] = inline;
      else if (i + 1 < argv.length) options[name] = argv[++i];
      else throw new Error(`--${name} needs a value.`);
    }
  }
  return { options, positional };
}
