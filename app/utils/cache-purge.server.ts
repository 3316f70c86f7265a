import { log } from "./log.server.ts";

// Cloudflare's cache purge API: a Worker's `caches.default.delete` only clears the data centre
// it runs in, so a change that must disappear everywhere (an archived or hidden passport) also
// asks the zone to purge the same URLs in every data centre (decision 034).
// POST {base}/client/v4/zones/{zone_id}/purge_cache, `Authorization: Bearer {token}`, body
// `{"files": [url, ...]}` (purge by URL: every plan, at most 100 URLs a request).

export type CachePurgeEnv = {
  CLOUDFLARE_ZONE_ID?: string;
  CLOUDFLARE_API_TOKEN?: string;
  /** Tests only: a local fake of the API. */
  CLOUDFLARE_API_BASE?: string;
};

const CLOUDFLARE_API_BASE = "https://api.cloudflare.com";
/** Cloudflare's limit of URLs in one purge request (every plan). */
const MAX_URLS_PER_REQUEST = 100;
/** A slow API never holds the change's response for long: the edge TTL is the fallback. */
const PURGE_TIMEOUT_MS = 5_000;

/**
 * Purges these absolute URLs from Cloudflare's cache in every data centre. Without a zone and a
 * token (local development, tests) it does nothing. It never throws: a failure is logged, and the
 * edge TTL bounds how long other data centres keep the old copy.
 */
export async function purgeEverywhere(env: CachePurgeEnv, urls: string[]) {
  const zoneId = env.CLOUDFLARE_ZONE_ID;
  const token = env.CLOUDFLARE_API_TOKEN;
  if (!zoneId || !token || urls.length === 0) return;
  const endpoint = `${env.CLOUDFLARE_API_BASE || CLOUDFLARE_API_BASE}/client/v4/zones/${encodeURIComponent(zoneId)}/purge_cache`;
  const chunks: string[][] = [];
  for (let start = 0; start < urls.length; start += MAX_URLS_PER_REQUEST) {
    chunks.push(urls.slice(start, start + MAX_URLS_PER_REQUEST));
  }
  await Promise.all(
    chunks.map(async (files) => {
      try {
        const response = await fetch(endpoint, {
          method: "POST",
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
          body: JSON.stringify({ files }),
          signal: AbortSignal.timeout(PURGE_TIMEOUT_MS),
        });
        const answer = (await response.json().catch(() => null)) as {
          success?: boolean;
          errors?: { code?: number; message?: string }[];
        } | null;
        if (!response.ok || answer?.success !== true) {
          log("error", "cache purge failed", { status: response.status, errors: answer?.errors ?? null, files });
        }
      } catch (error) {
        log("error", "cache purge failed", { error: error instanceof Error ? error.message : String(error), files });
      }
    }),
  );
}
