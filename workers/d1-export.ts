import { BACKUP_LOCK_DAYS } from "#app/services/account-purge.server.ts";

// The nightly D1 export (issue 43, decision 096, docs/operations.md): the daily run asks D1's
// export API for the whole database as SQL and keeps the file in the backup bucket, as long as the
// bucket's lock keeps every copy there. It POSTs `{"output_format": "polling"}` to
// {base}/client/v4/accounts/{account}/d1/database/{database}/export, then again with the answer's
// `at_bookmark` until its status is "complete"; the answer's `result.signed_url` serves the SQL.
// Outside production the API's stand-in at /dev/cloudflare answers (app/routes/dev.cloudflare.$.ts).

export const D1_EXPORTS_PREFIX = "d1-exports/";
/**
 * Days an export is kept, so the recovery point reaches back at least 30 days: the backup
 * bucket's lock (35 days) holds it that long anyway, and a day more (decision 096).
 */
export const D1_EXPORT_RETENTION_DAYS = BACKUP_LOCK_DAYS;
const CLOUDFLARE_API = "https://api.cloudflare.com";
/** Cloudflare cancels an export that is not polled; one a second, for at most 10 minutes. */
const POLL_INTERVAL_MS = 1_000;
const MAX_POLLS = 600;
const DAY_MS = 24 * 60 * 60 * 1000;

export type D1ExportEnv = Pick<Env, "MEDIA_BACKUP"> & {
  CLOUDFLARE_ACCOUNT_ID?: string;
  D1_DATABASE_ID?: string;
  D1_EXPORT_API_TOKEN?: string;
  /** Tests and development: a stand-in of the API. */
  CLOUDFLARE_API_BASE?: string;
};

/** The answer's `result`, as the API documents it (the fields read here). */
type ExportState = {
  status?: "active" | "complete" | "error";
  at_bookmark?: string;
  error?: string;
  result?: { filename?: string; signed_url?: string };
};

/** The day's file: one a day, a second run the same day replaces it. */
export const exportKeyOf = (day: Date) => `${D1_EXPORTS_PREFIX}${day.toISOString().slice(0, 10)}.sql`;

async function askExport(endpoint: string, token: string, bookmark: string | undefined): Promise<ExportState> {
  const response = await fetch(endpoint, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ output_format: "polling", ...(bookmark ? { current_bookmark: bookmark } : {}) }),
    signal: AbortSignal.timeout(30_000),
  });
  const answer = (await response.json().catch(() => null)) as {
    success?: boolean;
    errors?: { message?: string }[];
    result?: ExportState;
  } | null;
  if (!response.ok || answer?.success !== true || !answer.result) {
    const reason = answer?.errors?.map((error) => error.message).join("; ") || `HTTP ${response.status}`;
    throw new Error(`D1 export refused: ${reason}`);
  }
  return answer.result;
}

/** Polls the export until its file is ready; its signed URL and file name. */
async function finishedExport(env: D1ExportEnv, token: string, wait: (ms: number) => Promise<void>) {
  const endpoint =
    `${env.CLOUDFLARE_API_BASE || CLOUDFLARE_API}/client/v4/accounts/${encodeURIComponent(env.CLOUDFLARE_ACCOUNT_ID!)}` +
    `/d1/database/${encodeURIComponent(env.D1_DATABASE_ID!)}/export`;
  let bookmark: string | undefined;
  for (let poll = 0; poll < MAX_POLLS; poll++) {
    if (poll > 0) await wait(POLL_INTERVAL_MS);
    const state = await askExport(endpoint, token, bookmark);
    if (state.status === "error") throw new Error(`D1 export failed: ${state.error ?? "no reason given"}`);
    if (state.status === "complete") {
      if (!state.result?.signed_url) throw new Error("D1 export complete without a file to download");
      return { url: state.result.signed_url, filename: state.result.filename ?? null };
    }
    bookmark = state.at_bookmark ?? bookmark;
  }
  throw new Error(`D1 export still running after ${MAX_POLLS} polls`);
}

/** Deletes the exports older than D1_EXPORT_RETENTION_DAYS; how many. */
async function removeOldExports(bucket: R2Bucket, now: Date) {
  const oldest = exportKeyOf(new Date(now.getTime() - D1_EXPORT_RETENTION_DAYS * DAY_MS));
  const old: string[] = [];
  let cursor: string | undefined;
  do {
    const listing = await bucket.list({ prefix: D1_EXPORTS_PREFIX, cursor });
    old.push(...listing.objects.map((object) => object.key).filter((key) => key < oldest));
    cursor = listing.truncated ? listing.cursor : undefined;
  } while (cursor);
  if (old.length) await bucket.delete(old);
  return old.length;
}

/**
 * Exports the database into the backup bucket (`d1-exports/YYYY-MM-DD.sql`), then deletes the
 * exports past D1_EXPORT_RETENTION_DAYS. Without an account, a database id and a token it does nothing and
 * says so. A failure throws: the daily run logs it, and the older exports stay.
 */
export async function exportDatabase(
  env: D1ExportEnv,
  now: Date,
  wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
) {
  const token = env.D1_EXPORT_API_TOKEN;
  if (!env.CLOUDFLARE_ACCOUNT_ID || !env.D1_DATABASE_ID || !token) return { exported: null, bytes: 0, removed: 0 };
  const { url, filename } = await finishedExport(env, token, wait);
  const file = await fetch(url, { signal: AbortSignal.timeout(10 * 60_000) });
  if (!file.ok || !file.body) throw new Error(`D1 export download failed: HTTP ${file.status}`);
  const length = Number(file.headers.get("Content-Length"));
  // R2 takes a stream of a known length; the file is streamed through when the server says it.
  const body = length > 0 ? file.body.pipeThrough(new FixedLengthStream(length)) : await file.arrayBuffer();
  const key = exportKeyOf(now);
  const stored = await env.MEDIA_BACKUP.put(key, body, {
    httpMetadata: { contentType: "application/sql" },
    customMetadata: { exportedAt: now.toISOString(), ...(filename ? { filename } : {}) },
  });
  const removed = await removeOldExports(env.MEDIA_BACKUP, now);
  return { exported: key, bytes: stored?.size ?? 0, removed };
}
