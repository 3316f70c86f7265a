import type { Db } from "#db/client.ts";
import { dnsName, listDevDnsRecords } from "#db/queries/dev-stand-ins.ts";
import type { AppEnv } from "#app/utils/env.server.ts";
import { readCapped } from "./outside-web.server.ts";

/**
 * TXT lookups over DNS over HTTPS, in the JSON form that Cloudflare's and Google's resolvers
 * answer (`accept: application/dns-json`; the record types and status codes of RFC 1035 and
 * RFC 8484's resolvers). In production the query goes to DNS_RESOLVER_URL; elsewhere the
 * stand-in of /dev/dns.json answers the same JSON from D1, and nothing reaches the network.
 */

const TXT = 16;
const NXDOMAIN = 3;
/** A resolver's answer for a few TXT records is a few hundred bytes. */
const MAX_ANSWER_BYTES = 64 * 1024;

export type DohAnswer = {
  Status: number;
  Question: { name: string; type: number }[];
  Answer?: { name: string; type: number; TTL: number; data: string }[];
};
export type TxtLookup = { ok: true; values: string[] } | { ok: false; reason: string };
/** Asks a resolver for the TXT records at a name and returns its JSON answer. */
export type Resolve = (name: string) => Promise<unknown>;

/** A TXT record's data as a DNS presentation string: quoted, with quotes and backslashes escaped. */
const quoted = (value: string) => `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`;

/** The stand-in's answer, in the resolvers' JSON form, from the records stored for a name. */
export function dohAnswer(name: string, records: { name: string; type: string; data: string }[]): DohAnswer {
  const txt = records.filter((record) => record.type === "TXT" && record.name === dnsName(name));
  return {
    Status: txt.length ? 0 : NXDOMAIN,
    Question: [{ name: dnsName(name), type: TXT }],
    ...(txt.length
      ? { Answer: txt.map((record) => ({ name: record.name, type: TXT, TTL: 300, data: quoted(record.data) })) }
      : {}),
  };
}

/**
 * The text of a TXT answer's `data`: its character-strings joined (a long value arrives split
 * into quoted pieces of at most 255 bytes), escapes undone; unquoted data as it is.
 */
function txtValue(data: string) {
  const pieces = [...data.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((match) =>
    match[1]!.replace(/\\(\d{3}|.)/g, (_, escaped: string) =>
      escaped.length === 3 ? String.fromCharCode(Number(escaped)) : escaped,
    ),
  );
  return pieces.length ? pieces.join("") : data;
}

/** Asks the configured resolver over HTTPS (production), with a timeout and a size cap. */
export function resolverOver(resolverUrl: string, fetcher: typeof fetch = fetch): Resolve {
  return async (name) => {
    const url = new URL(resolverUrl);
    url.searchParams.set("name", dnsName(name));
    url.searchParams.set("type", "TXT");
    const response = await fetcher(url.href, {
      headers: { accept: "application/dns-json" },
      // Workers fetch has no redirect: "error"; a resolver that redirects is not followed.
      redirect: "manual",
      signal: AbortSignal.timeout(5000),
    });
    if (response.status !== 200) throw new Error(`resolver answered ${response.status}`);
    // Capped while it is read: a resolver that answers without end is cut off at the cap.
    const bytes = await readCapped(response.body, MAX_ANSWER_BYTES);
    if (!bytes) throw new Error("resolver answer too large");
    return JSON.parse(new TextDecoder().decode(bytes));
  };
}

/** The stand-in of development and tests: the records of /dev/dns.json. */
const standInResolver =
  (db: Db): Resolve =>
  async (name) =>
    dohAnswer(name, await listDevDnsRecords(db, { name, type: "TXT" }));

export function resolverFor(context: { db: Db; env: AppEnv }): Resolve {
  return context.env.ENVIRONMENT === "production"
    ? resolverOver(context.env.DNS_RESOLVER_URL)
    : standInResolver(context.db);
}

/** The TXT values at `name`: none when the name does not exist; a reason when the lookup failed. */
export async function lookupTxt(resolve: Resolve, name: string): Promise<TxtLookup> {
  let answer: DohAnswer;
  try {
    answer = (await resolve(name)) as DohAnswer;
  } catch {
    return { ok: false, reason: "The DNS lookup failed. Try again in a few minutes." };
  }
  if (answer?.Status === NXDOMAIN) return { ok: true, values: [] };
  if (answer?.Status !== 0) return { ok: false, reason: "The DNS lookup failed. Try again in a few minutes." };
  const records = Array.isArray(answer.Answer) ? answer.Answer : [];
  return {
    ok: true,
    values: records
      .filter((record) => record?.type === TXT && typeof record.data === "string")
      .map((record) => txtValue(record.data)),
  };
}
