import { edgeCache } from "./passport-cache.server.ts";

/**
 * Documents read from other hosts (DID documents, status lists, did-configuration.json), kept in
 * this data centre's edge cache for five minutes, as verifiers see our own status lists: checking
 * the same issuer again reads nothing from its host, and spends none of a check's outside reads.
 */

const OUTSIDE_CACHE_SECONDS = 300;
const keyOf = (url: URL) => new Request(`https://outside-cache.invalid/${encodeURIComponent(url.href)}`);

export async function cachedOutsideDocument(url: URL) {
  const cached = await edgeCache().match(keyOf(url));
  if (!cached) return null;
  return { contentType: cached.headers.get("Content-Type") ?? "", body: await cached.text() };
}

export async function cacheOutsideDocument(url: URL, document: { contentType: string; body: string }) {
  await edgeCache().put(
    keyOf(url),
    new Response(document.body, {
      headers: { "Content-Type": document.contentType, "Cache-Control": `max-age=${OUTSIDE_CACHE_SECONDS}` },
    }),
  );
}
