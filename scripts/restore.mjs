// `npm run restore -- BACKUP [--persist-to DIR] [--replace]`: puts a backup of `npm run backup`
// (its folder, or its manifest.json) back into the local state (`.wrangler/state`, or DIR).
//
// Only into empty state: a D1 with tables or an R2 bucket with objects is refused, unless
// --replace says to delete them first (D1, R2 and the page cache; nothing else of the state).
// Every checksum is checked before anything is written (the SQL file and each object's file against
// the manifest), and again after: each object as R2 stored it, the row count of every table, and
// the database exported anew, which must be the backup's SQL byte for byte.
import { readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  DEFAULT_PERSIST_TO,
  describeState,
  executeSqlFile,
  exportD1,
  FORMAT,
  MANIFEST,
  openState,
  parseArguments,
  readObject,
  requireNobodyUsing,
  sha256,
  tableCounts,
  wipeState,
} from "./backup/local-state.mjs";

class RestoreError extends Error {}

function readBackup(path) {
  const folder = statSync(path, { throwIfNoEntry: false })?.isDirectory() ? path : dirname(path);
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(folder, MANIFEST), "utf8"));
  } catch (error) {
    throw new RestoreError(`${join(folder, MANIFEST)} cannot be read: ${error.message}`);
  }
  if (manifest.format !== FORMAT.name || manifest.version !== FORMAT.version)
    throw new RestoreError(
      `${folder} is not a backup this version can restore (format ${FORMAT.name} ${FORMAT.version}).`,
    );
  return { folder, manifest };
}

/** The backup's files against its manifest, before anything is written. */
function verifyFiles(folder, manifest) {
  const problems = [];
  // Files are found by name rules, not by paths the manifest could point anywhere.
  if (manifest.d1.file !== "d1.sql") throw new RestoreError(`${folder}: the manifest names another SQL file.`);
  const sql = readFileSync(join(folder, manifest.d1.file), "utf8");
  if (sha256(sql) !== manifest.d1.sha256) problems.push(`${manifest.d1.file}: its checksum is not the manifest's`);
  const objects = new Map();
  for (const entry of manifest.r2.objects) {
    if (!/^[0-9a-f]{64}$/.test(entry.sha256) || entry.file !== `r2/${entry.sha256}`) {
      problems.push(`${entry.key}: its file is not named by its checksum`);
      continue;
    }
    let bytes;
    try {
      bytes = readFileSync(join(folder, entry.file));
    } catch {
      problems.push(`${entry.key}: ${entry.file} is missing`);
      continue;
    }
    if (bytes.length !== entry.size || sha256(bytes) !== entry.sha256)
      problems.push(`${entry.key}: ${entry.file} does not match its size and checksum`);
    objects.set(entry.key, bytes);
  }
  if (problems.length > 0)
    throw new RestoreError(`The backup in ${folder} is damaged; nothing was restored:\n- ${problems.join("\n- ")}`);
  return { sql, objects };
}

/** R2's metadata as JSON kept it: dates come back as strings. */
function httpMetadataOf(stored = {}) {
  const metadata = { ...stored };
  if (metadata.cacheExpiry) metadata.cacheExpiry = new Date(metadata.cacheExpiry);
  return metadata;
}

/** Puts each object back with its metadata, then reads it back; what did not come back goes to `problems`. */
async function putObjects(bucket, entries, objects, problems) {
  for (const entry of entries) {
    // A copy in an ArrayBuffer of its own: Miniflare's proxy does not pass Node's pooled Buffer.
    // R2 refuses the put if the bytes do not hash to the given SHA-256.
    await bucket.put(entry.key, new Uint8Array(objects.get(entry.key)), {
      sha256: entry.sha256,
      httpMetadata: httpMetadataOf(entry.httpMetadata),
      customMetadata: entry.customMetadata ?? {},
    });
    const stored = await readObject(bucket, entry.key);
    if (!stored || sha256(stored.bytes) !== entry.sha256) problems.push(`R2 ${entry.key}: not stored as backed up`);
  }
}

async function restore(path, { persistTo = DEFAULT_PERSIST_TO, replace = false }) {
  const { folder, manifest } = readBackup(path);
  const { sql, objects } = verifyFiles(folder, manifest);

  try {
    await requireNobodyUsing(persistTo);
  } catch (error) {
    throw new RestoreError(error.message);
  }
  const present = await describeState(persistTo);
  if (present.tables > 0 || present.objects > 0) {
    if (!replace)
      throw new RestoreError(
        `The local state in ${persistTo} is not empty (${present.tables} tables in D1` +
          `${present.objects > 0 ? ", objects in R2" : ""}): a restore only fills empty state. ` +
          "Add --replace to delete its D1, R2 and cache first.",
      );
    wipeState(persistTo);
  }

  const problems = [];
  try {
    executeSqlFile(join(folder, manifest.d1.file), persistTo);
    const state = await openState(persistTo);
    try {
      await putObjects(state.bucket, manifest.r2.objects, objects, problems);
      const counts = await tableCounts(state.db);
      for (const [table, rows] of Object.entries(manifest.d1.tables))
        if (counts[table] !== rows)
          problems.push(`D1 ${table}: ${counts[table] ?? "no table"} rows, backed up ${rows}`);
      if (problems.length === 0 && (await exportD1(state.db)) !== sql)
        problems.push("D1 exported after the restore is not the backup's SQL");
    } finally {
      await state.dispose();
    }
  } catch (error) {
    error.message += `\nThe state in ${persistTo} is partly restored: run the restore again with --replace.`;
    throw error;
  }
  if (problems.length > 0)
    throw new RestoreError(`The restore did not give back the backup:\n- ${problems.join("\n- ")}`);
  return manifest;
}

try {
  const { options, positional } = parseArguments(process.argv.slice(2), { "persist-to": "value", replace: "flag" });
  if (positional.length !== 1)
    throw new RestoreError("Usage: npm run restore -- BACKUP [--persist-to DIR] [--replace]");
  const persistTo = options["persist-to"] ?? DEFAULT_PERSIST_TO;
  const manifest = await restore(positional[0], { persistTo, replace: options.replace === true });
  const rows = Object.values(manifest.d1.tables).reduce((sum, n) => sum + n, 0);
  console.log(
    `Restored the backup of ${manifest.createdAt} into ${persistTo}: D1 ${Object.keys(manifest.d1.tables).length} ` +
      `tables, ${rows} rows; R2 ${manifest.r2.objects.length} objects (${manifest.r2.bytes} bytes). Every checksum verified.`,
  );
} catch (error) {
  console.error(`Restore failed: ${error.message}`);
  // 1: refused or failed as described; 2: something unexpected (with its stack).
  if (!(error instanceof RestoreError)) console.error(error);
  process.exit(error instanceof RestoreError ? 1 : 2);
}
