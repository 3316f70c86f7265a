// `npm run backup [-- --persist-to DIR] [--out DIR]`: a consistent snapshot of the local state
// (`.wrangler/state`, what `npm start` serves, or DIR) into backups/<time>/ (or --out):
//
//   manifest.json   what was taken: D1's file, checksum and rows per table; every R2 object's key,
//                   size, SHA-256, metadata and file; what a backup leaves out
//   d1.sql          the whole D1 database as `wrangler d1 export` writes it
//   r2/<sha256>     each R2 object's bytes, named by their checksum
//
// Consistent: it refuses while a server holds the state open (stop `npm start` first), then
// exports D1, copies R2, exports D1 and lists R2 again, and keeps the snapshot only if nothing changed
// in between (the app writes an object before the row that points at it, so every row of the
// snapshot finds its object; docs/decisions/075 has the deletes); else it retries, then gives up.
// `npm run restore -- backups/<time>` puts it back (scripts/restore.mjs). docs/operations.md has
// the production way; docs/decisions/075 the choices.
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  DEFAULT_PERSIST_TO,
  exportD1,
  FORMAT,
  listObjects,
  MANIFEST,
  openState,
  parseArguments,
  readObject,
  requireNobodyUsing,
  sha256,
  tableCounts,
} from "./backup/local-state.mjs";

const ATTEMPTS = 3;
/** What a backup does not hold, and why that loses nothing (written into each manifest). */
const NOT_BACKED_UP = [
  "Durable Object PersonHub: open WebSocket connections, a ping alarm and the bookmark of the last passport change; clients reconnect, the next change writes a new bookmark",
  "Cache (edge-cached passports, cards, status lists): rebuilt from D1 and R2 on the next request",
  "Secrets (.dev.vars; `wrangler secret` in production): SESSION_SECRET and CREDENTIAL_KEY_SECRET are kept apart",
];

const listingOf = (objects) => objects.map((object) => `${object.key}\t${object.etag}\t${object.size}`).join("\n");

/** One attempt: the SQL, the objects copied into `out`, and whether D1 and R2 stood still meanwhile. */
async function snapshot(persistTo, out) {
  const state = await openState(persistTo);
  try {
    const sql = await exportD1(state.db);
    const tables = await tableCounts(state.db);
    const listed = await listObjects(state.bucket);
    const objects = [];
    mkdirSync(join(out, "r2"), { recursive: true });
    for (const { key, etag, uploaded } of listed) {
      const object = await readObject(state.bucket, key);
      if (!object) return { quiet: false };
      const checksum = sha256(object.bytes);
      const file = `r2/${checksum}`;
      if (!existsSync(join(out, file))) writeFileSync(join(out, file), object.bytes);
      const { httpMetadata, customMetadata } = object;
      objects.push({
        key,
        size: object.bytes.length,
        sha256: checksum,
        etag,
        uploaded,
        httpMetadata,
        customMetadata,
        file,
      });
    }
    const quiet =
      (await exportD1(state.db)) === sql && listingOf(await listObjects(state.bucket)) === listingOf(listed);
    return { quiet, sql, tables, objects, bindings: state.bindings };
  } finally {
    await state.dispose();
  }
}

/** Takes the backup of `persistTo` into `out`; returns the manifest. */
async function backup({ persistTo = DEFAULT_PERSIST_TO, out } = {}) {
  if (!existsSync(join(persistTo, "v3", "d1")))
    throw new Error(`No local D1 in ${persistTo}: nothing to back up (npm run db:migrate creates it).`);
  if (existsSync(out) && readdirSync(out).length > 0) throw new Error(`${out} is not empty: choose another --out.`);
  await requireNobodyUsing(persistTo);
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    const taken = await snapshot(persistTo, out);
    if (!taken.quiet) {
      console.warn(`The state in ${persistTo} changed while it was copied (attempt ${attempt} of ${ATTEMPTS}).`);
      continue;
    }
    if (Object.keys(taken.tables).length === 0) throw new Error(`The local D1 in ${persistTo} has no tables.`);
    writeFileSync(join(out, "d1.sql"), taken.sql);
    const manifest = {
      format: FORMAT.name,
      version: FORMAT.version,
      createdAt: new Date().toISOString(),
      source: persistTo,
      d1: {
        binding: taken.bindings.d1.binding,
        database: taken.bindings.d1.name,
        file: "d1.sql",
        bytes: Buffer.byteLength(taken.sql),
        sha256: sha256(taken.sql),
        tables: taken.tables,
      },
      r2: {
        binding: taken.bindings.r2.binding,
        bucket: taken.bindings.r2.name,
        bytes: taken.objects.reduce((sum, object) => sum + object.size, 0),
        objects: taken.objects,
      },
      notBackedUp: NOT_BACKED_UP,
    };
    writeFileSync(join(out, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    return manifest;
  }
  rmSync(out, { recursive: true, force: true });
  throw new Error(
    `The state in ${persistTo} kept changing while it was copied: stop the server that writes to it ` +
      "(npm start, npm run dev, wrangler dev) and run the backup again.",
  );
}

/** backups/2026-11-26T16-30-05Z: sorts by time, and is a valid folder name everywhere. */
const stamp = () =>
  new Date()
    .toISOString()
    .replace(/\.\d+Z$/, "Z")
    .replaceAll(":", "-");

try {
  const { options } = parseArguments(process.argv.slice(2), { "persist-to": "value", out: "value" });
  const out = options.out ?? join("backups", stamp());
  const manifest = await backup({ persistTo: options["persist-to"], out });
  const rows = Object.values(manifest.d1.tables).reduce((sum, n) => sum + n, 0);
  console.log(
    `Backed up ${manifest.source}: D1 ${Object.keys(manifest.d1.tables).length} tables, ${rows} rows ` +
      `(${manifest.d1.bytes} bytes of SQL); R2 ${manifest.r2.objects.length} objects (${manifest.r2.bytes} bytes).\n` +
      `Written to ${out}. Restore with: npm run restore -- ${out}`,
  );
} catch (error) {
  console.error(`Backup failed: ${error.message}`);
  process.exit(1);
}
