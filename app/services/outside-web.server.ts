import type { Db } from "#db/client.ts";
import { findDevWebDocument } from "#db/queries/dev-stand-ins.ts";
import type { AppEnv } from "#app/utils/env.server.ts";
import { concat } from "#app/utils/media-types.server.ts";
import { cacheOutsideDocument, cachedOutsideDocument } from "#app/utils/outside-cache.server.ts";

/**
 * The one way the app reads a document from another host (a DID document, a status list, a
 * did-configuration). The address comes from someone else's data, so every read is bounded: https
 * only to a public host name (`hostRefusal`), no redirects, a timeout, and a body read as a
 * stream and abandoned at its cap whatever Content-Length says; what was read is kept in the edge
 * cache for five minutes (outside-cache.server.ts). Outside production nothing reaches the
 * network: the documents stored through /dev/web.json stand in for the web, as the dev mailbox
 * does for mail.
 */

export const OUTSIDE_MAX_BYTES = 512 * 1024;
export const OUTSIDE_TIMEOUT_MS = 5000;
/** How many outside documents one check (a verification, say) may read. */
export const OUTSIDE_FETCHES_PER_CHECK = 3;

export type OutsideContext = { db: Db; env: Pick<AppEnv, "ENVIRONMENT" | "APP_URL"> };
export type OutsideDocument = { ok: true; contentType: string; body: string } | { ok: false; reason: string };
/** Outside reads left to one check; `fetchOutside` spends from it and refuses when it is spent. */
export type OutsideBudget = { remaining: number };

export const outsideBudget = (fetches = OUTSIDE_FETCHES_PER_CHECK): OutsideBudget => ({ remaining: fetches });

const parseUrl = (url: string) => {
  try {
    return new URL(url);
  } catch {
    return null;
  }
};
const refusal = (reason: string): OutsideDocument => ({ ok: false, reason });

/**
 * The outbound host rule (issue 43): someone else's data names the address, so it may only name
 * a public web server: a DNS name of at least two labels (no IP literal, no `localhost`, no bare
 * intranet name), on the https port, and never this app itself (which would answer as us).
 */
export function hostRefusal(target: URL, appUrl: string | undefined) {
  const host = target.hostname;
  if (target.port !== "") return "only the https port (443) is read";
  if (host.startsWith("[") || /^[\d.]+$/.test(host) || /^0x/i.test(host))
    return "an IP address is not read: only a named host";
  const labels = host.split(".");
  if (labels.length < 2 || labels.some((label) => label === "")) return "only a full domain name is read";
  if (appUrl && parseUrl(appUrl)?.hostname === host) return "this app's own address is not read from outside";
  return null;
}
const kilobytes = (bytes: number) => `${Math.round(bytes / 1024)} KB`;

export async function fetchOutside(
  context: OutsideContext,
  url: string,
  options: { accept: string; maxBytes?: number; timeoutMs?: number; budget?: OutsideBudget },
): Promise<OutsideDocument> {
  const { accept, maxBytes = OUTSIDE_MAX_BYTES, timeoutMs = OUTSIDE_TIMEOUT_MS, budget } = options;
  const target = parseUrl(url);
  if (target?.protocol !== "https:" || target.username || target.password) {
    return refusal("only https:// addresses without user information are read");
  }
  const host = hostRefusal(target, context.env.APP_URL);
  if (host) return refusal(host);
  const production = context.env.ENVIRONMENT === "production";
  const cached = production ? await cachedOutsideDocument(target) : null;
  if (cached) return { ok: true, ...cached };
  if (budget) {
    if (budget.remaining <= 0) return refusal("this check already read as many outside documents as it may");
    budget.remaining -= 1;
  }
  if (!production) {
    const document = await findDevWebDocument(context.db, target.href);
    if (!document) return refusal("not found (outside production, only documents stored at /dev/web.json are read)");
    if (new TextEncoder().encode(document.body).byteLength > maxBytes) {
      return refusal(`larger than ${kilobytes(maxBytes)}`);
    }
    return { ok: true, contentType: document.contentType, body: document.body };
  }
  const document = await fetchOverNetwork(target, accept, maxBytes, timeoutMs);
  if (document.ok) await cacheOutsideDocument(target, document).catch(() => undefined);
  return document;
}

async function fetchOverNetwork(
  target: URL,
  accept: string,
  maxBytes: number,
  timeoutMs: number,
): Promise<OutsideDocument> {
  const timedOut = `no complete answer within ${timeoutMs / 1000} s`;
  let response: Response;
  try {
    // Workers refuse `redirect: "error"`; "manual" hands the redirect back, and it is refused below.
    response = await fetch(target, {
      headers: { Accept: accept },
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    return refusal(error instanceof Error && error.name === "TimeoutError" ? timedOut : "the request failed");
  }
  const abandon = async (reason: string) => {
    await response.body?.cancel().catch(() => undefined);
    return refusal(reason);
  };
  if (response.status >= 300 && response.status < 400) return abandon("it redirects, and redirects are not followed");
  if (!response.ok) return abandon(`it answered ${response.status}`);
  if (Number(response.headers.get("Content-Length")) > maxBytes) return abandon(`larger than ${kilobytes(maxBytes)}`);
  let bytes: Uint8Array | null;
  try {
    bytes = await readCapped(response.body, maxBytes);
  } catch {
    return refusal(`the answer broke off or took longer than ${timeoutMs / 1000} s`);
  }
  if (!bytes) return refusal(`larger than ${kilobytes(maxBytes)}`);
  return {
    ok: true,
    contentType: response.headers.get("Content-Type") ?? "",
    body: new TextDecoder().decode(bytes),
  };
}

/**
 * The bytes of a stream, or null as soon as more than `maxBytes` arrived: the stream is then
 * cancelled, so at most the cap and one chunk are ever held. Errors of the stream are thrown.
 */
export async function readCapped(stream: ReadableStream<Uint8Array> | null, maxBytes: number) {
  if (!stream) return new Uint8Array(0);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return concat(chunks, size);
}
