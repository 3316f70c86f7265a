import {
  fetchOutside,
  outsideBudget,
  type OutsideBudget,
  type OutsideContext,
} from "#app/services/outside-web.server.ts";
import type { JsonObject } from "./data-integrity.server.ts";
import { statusListCredential, didDocument, personDidDocument } from "./issuer-documents.server.ts";
import { hostOf, statusListUrl, type Issuing } from "./issuer.server.ts";
import { keyOfJwk, keyOfMultibase, type JwsKey } from "./jws.server.ts";

// Reading did:web DID documents and status lists as an outside verifier would: ours from D1
// (offline), another host's through fetchOutside within a check's budget, every URL parsed from
// the DID rather than pasted, and the keys a document lists for a relationship.

export type Resolver = {
  issuing: Issuing;
  /** How other hosts are read: over the network in production only (fetchOutside). */
  outside: OutsideContext;
};

/** One verification's view of the web: its budget of outside reads, and the DID documents it read. */
export type Lookup = {
  resolver: Resolver;
  budget: OutsideBudget;
  didDocuments: Map<string, Promise<JsonObject | string>>;
};

export const JSON_TYPES = "application/did+json, application/ld+json, application/json";

/**
 * A did:web identifier as the W3C did:web method reads it: a domain name, then colon-separated
 * path segments; a port only as the method allows one, its colon percent-encoded (`%3A`).
 */
type DidWeb = {
  /** The host as a URL has it: `name` or `name:port` (443 left out, as https leaves it). */
  host: string;
  /** Whether the name is one of the public web's: two labels at least (not `localhost`, not an intranet name). */
  isPublic: boolean;
  /** The path segments, decoded. */
  path: string[];
};

const DNS_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** What a decoded host or path segment must not carry: it would change where a URL points. */
const URL_DELIMITERS = /[/?#@\\]/;

/** The DID's parts, or why it is refused: parsed, never pasted into a URL. */
export function parseDidWeb(did: string): DidWeb | string {
  if (!did.startsWith("did:web:")) return "The issuer is not a did:web identifier.";
  const [encodedHost = "", ...encodedPath] = did.slice("did:web:".length).split(":");
  const refuse = (why: string) => `The issuer's did:web host "${encodedHost}" ${why}; nothing was fetched.`;
  const [, name = "", port] = /^(.*?)(?:%3a(.*))?$/i.exec(encodedHost) ?? [];
  const decoded = safeDecode(encodedHost);
  if (decoded === null) return refuse("is not validly percent-encoded");
  if (decoded.includes("@")) return refuse("names a user (@), which a did:web host cannot");
  if (/[/?#\\]/.test(decoded)) return refuse("carries a path, query or fragment (/ ? # \\)");
  // The URL parser reads a name whose last label is a number (decimal, or hex with 0x) as IPv4.
  if (/^\[|:.*:/.test(decoded) || /(?:^|\.)(?:\d+|0x[0-9a-f]*)$/i.test(name)) {
    return refuse("is an IP address, not a domain name");
  }
  if (name.includes("%")) return refuse("percent-encodes characters a domain name cannot have");
  if (port !== undefined && !(/^\d{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65535)) {
    return refuse("has a port that is not a number from 1 to 65535");
  }
  const labels = name.split(".");
  if (name.length > 253 || !labels.every((label) => DNS_LABEL.test(label))) {
    return refuse("is not a plain domain name (lowercase letters, digits and hyphens between dots)");
  }
  const path = encodedPath.map(safeDecode);
  if (path.some((segment) => !segment || segment === "." || segment === ".." || URL_DELIMITERS.test(segment))) {
    return "The issuer's did:web path is not plain names between colons; nothing was fetched.";
  }
  const host = port === undefined || Number(port) === 443 ? name : `${name}:${Number(port)}`;
  return { host, isPublic: labels.length >= 2, path: path as string[] };
}

function safeDecode(text: string) {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** Where a did:web DID document is, built with the URL API and checked to point at the DID's host. */
function didDocumentUrl(did: DidWeb) {
  const url = safeUrl(`https://${did.host}`);
  if (!url) return null;
  url.pathname = did.path.length ? `/${did.path.map(encodeURIComponent).join("/")}/did.json` : "/.well-known/did.json";
  return url.host === did.host && !url.username && !url.password && !url.search && !url.hash ? url.href : null;
}

/** The did:web DID document of `did`: ours from D1, another host's through fetchOutside (once per check). */
export function resolveDid(lookup: Lookup, did: string): Promise<JsonObject | string> {
  let document = lookup.didDocuments.get(did);
  if (!document) {
    document = readDid(lookup, did);
    lookup.didDocuments.set(did, document);
  }
  return document;
}

async function readDid(lookup: Lookup, did: string): Promise<JsonObject | string> {
  const parsed = parseDidWeb(did);
  if (typeof parsed === "string") return parsed;
  const { issuing } = lookup.resolver;
  if (parsed.host === hostOf(issuing.origin)) {
    const own = /^(orgs|people):([0-9a-f-]{36})$/.exec(parsed.path.join(":"));
    const document = !own
      ? null
      : own[1] === "orgs"
        ? await didDocument(issuing, own[2]!)
        : await personDidDocument(issuing, own[2]!);
    return document ?? "The issuer's DID document was not found.";
  }
  const url = didDocumentUrl(parsed);
  if (!parsed.isPublic || !url) {
    return `The issuer's did:web host "${parsed.host}" is not a public domain name; nothing was fetched.`;
  }
  return readJson(
    lookup,
    url,
    (reason) => `The issuer's DID document could not be read from ${parsed.host}: ${reason}.`,
  );
}

async function readJson(lookup: Lookup, url: string, failure: (reason: string) => string) {
  const answer = await fetchOutside(lookup.resolver.outside, url, { accept: JSON_TYPES, budget: lookup.budget });
  if (!answer.ok) return failure(answer.reason);
  try {
    const json = JSON.parse(answer.body) as unknown;
    return json && typeof json === "object" && !Array.isArray(json)
      ? (json as JsonObject)
      : failure("not a JSON object");
  } catch {
    return failure("not JSON");
  }
}

/** Why the status list at `url` is not read: it is not on the did:web issuer's own host; null when it is. */
export function statusListElsewhere(url: string, issuerId: string) {
  const issuer = parseDidWeb(issuerId);
  const target = safeUrl(url);
  if (typeof issuer === "string" || !target) return "The status list's address is not a URL.";
  if (target.host === issuer.host) return null;
  return `The status list is on ${target.host}, not on the issuer's host ${issuer.host}; it was not fetched.`;
}

/**
 * The status list credential at `url`, which must be on the issuer's own host: ours from D1,
 * another host's through fetchOutside.
 */
export async function resolveStatusList(lookup: Lookup, url: string, issuerId: string): Promise<JsonObject | string> {
  const elsewhere = statusListElsewhere(url, issuerId);
  if (elsewhere) return elsewhere;
  const target = safeUrl(url)!;
  const { issuing } = lookup.resolver;
  const prefix = statusListUrl(issuing.origin, "");
  if (url.startsWith(prefix)) {
    return (await statusListCredential(issuing, url.slice(prefix.length))) ?? "The status list was not found.";
  }
  return readJson(lookup, target.href, (reason) => `The status list could not be read: ${reason}.`);
}

function safeUrl(url: string) {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** The public key behind a proof's verification method, when the DID document lists it for assertions. */
export function assertionKey(didDocument: JsonObject, verificationMethod: string) {
  return listedKey(didDocument, verificationMethod, "assertionMethod");
}

/**
 * The public key of `verificationMethod` when the DID document lists it under `relationship` (by
 * reference or embedded): a Multikey, an Ed25519VerificationKey2020 as wallets' did:web documents
 * still publish them, or a JsonWebKey2020 (or a JsonWebKey of the Controlled Identifiers spec) as
 * VC-JWT issuers publish theirs; null otherwise.
 */
export function listedJwsKey(
  didDocument: JsonObject,
  verificationMethod: string,
  relationship: "assertionMethod" | "authentication",
): JwsKey | null {
  const listed = ([] as unknown[]).concat(didDocument[relationship] ?? []);
  const allowed = listed.some((entry) =>
    typeof entry === "string" ? entry === verificationMethod : (entry as JsonObject)?.id === verificationMethod,
  );
  const methods = ([] as unknown[]).concat(didDocument.verificationMethod ?? [], listed) as JsonObject[];
  const method = methods.find((entry) => typeof entry === "object" && entry?.id === verificationMethod);
  if (!allowed || !method) return null;
  if (method.type === "JsonWebKey2020" || method.type === "JsonWebKey") {
    const jwk = method.publicKeyJwk;
    return typeof jwk === "object" && jwk !== null && !Array.isArray(jwk) ? keyOfJwk(jwk) : null;
  }
  const multibase = method.type === "Multikey" || method.type === "Ed25519VerificationKey2020";
  return multibase && typeof method.publicKeyMultibase === "string" ? keyOfMultibase(method.publicKeyMultibase) : null;
}

/** The Ed25519 public key of `verificationMethod` (data integrity proofs and DID auth sign with no other). */
export function listedKey(
  didDocument: JsonObject,
  verificationMethod: string,
  relationship: "assertionMethod" | "authentication",
) {
  const key = listedJwsKey(didDocument, verificationMethod, relationship);
  return key?.kind === "Ed25519" ? key.raw : null;
}

/**
 * A holder's did:web DID document, read as an issuer's is (the same URL rules, one outside read
 * within a budget of its own, the dev stand-in outside production), or why it could not be.
 */
export async function resolveHolderDid(resolver: Resolver, did: string): Promise<JsonObject | string> {
  const document = await resolveDid({ resolver, budget: outsideBudget(), didDocuments: new Map() }, did);
  return typeof document === "string" ? document.replace(/^The issuer's/, "The holder's") : document;
}
