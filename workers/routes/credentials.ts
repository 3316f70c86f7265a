import { consumeRateLimit, RATE_LIMIT_MESSAGE } from "#app/utils/rate-limit.server.ts";
import { Hono, type Context } from "hono";
import { findCredential } from "#db/queries/credentials/stored.ts";
import { findEndorsementCredential } from "#db/queries/endorsements.ts";
import { edgeCache } from "#app/utils/passport-cache.server.ts";
import {
  didDocumentPath,
  issuing,
  personDidDocumentPath,
  statusListPath,
} from "#app/services/credentials/issuer.server.ts";
import {
  didDocument,
  personDidDocument,
  statusListCredential,
} from "#app/services/credentials/issuer-documents.server.ts";
import { servableCredential } from "#app/services/credentials/reissue.server.ts";
import { acceptanceProof, boundToHolder } from "#app/services/wallet-acceptance.server.ts";
import type { WorkerEnv } from "../types.ts";

/**
 * What verifiers fetch: DID documents, status lists and credential JSON. Public, read-only, for
 * any origin (CORS *) and never with cookies, so that a browser-based verifier can fetch them
 * (docs/security.md, "Verifiable credentials").
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const notFound = (c: Context<WorkerEnv>) => c.json({ error: "Not found" }, 404, { "Access-Control-Allow-Origin": "*" });
/** Answers to an Accept header that asks for the credential rather than its page. */
export const CREDENTIAL_MEDIA_TYPES = ["application/ld+json", "application/vc", "application/json"];
// A status list is re-signed at most once per revocation, a DID document changes with a key or a
// domain; verifiers see either change within a minute.
const PUBLIC_DOCUMENT_MAX_AGE = 60;

function publicJson(c: Context<WorkerEnv>, body: unknown, contentType: string, maxAge: number) {
  return new Response(JSON.stringify(body, null, 2), {
    headers: {
      "Content-Type": contentType,
      "Access-Control-Allow-Origin": "*",
      "Cache-Control": `public, max-age=${maxAge}`,
    },
  });
}

/** Where this Worker's credentials live: APP_URL's origin, else the request's (local development). */
export const issuingOf = (c: Context<WorkerEnv>) => {
  const { db, env } = c.get("loadContext");
  return issuing(db, env) ?? { db, origin: new URL(c.req.url).origin, secret: env.CREDENTIAL_KEY_SECRET };
};

/** The credential of the `:id` in the path as it may be served (signed again if its key was retired). */
async function servable(c: Context<WorkerEnv>) {
  const id = c.req.param("id");
  const credential = id && UUID.test(id) ? await findCredential(c.get("loadContext").db, id) : null;
  if (!credential?.json) return null;
  return {
    id: credential.id,
    organizationId: credential.organizationId,
    retiredKeyVersions: credential.retiredKeyVersions,
    json: await servableCredential(issuingOf(c), { ...credential, json: credential.json }),
  };
}

function preflight(c: Context<WorkerEnv>) {
  c.header("Access-Control-Allow-Origin", "*");
  c.header("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS");
  c.header("Access-Control-Allow-Headers", "Accept");
  c.header("Access-Control-Max-Age", "86400");
  return c.body(null, 204);
}

/**
 * The edge cache's key of a public document (a status list, a DID document): its URL on the
 * issuer's origin, whatever query string or host the request came with, so that one copy is kept
 * and the one a revocation deletes and purges is that copy.
 */
const edgeCacheKey = (c: Context<WorkerEnv>, path: string) => new Request(`${issuingOf(c).origin}${path}`);

/** A DID document, edge-cached like the status lists: a new or retired key reaches verifiers within a minute. */
async function servedDidDocument(c: Context<WorkerEnv>, path: string, read: () => Promise<unknown>) {
  const cacheKey = edgeCacheKey(c, path);
  const cached = await edgeCache().match(cacheKey);
  if (cached) return cached;
  const document = await read();
  if (!document) return notFound(c);
  const response = () => publicJson(c, document, "application/did+json", PUBLIC_DOCUMENT_MAX_AGE);
  c.executionCtx.waitUntil(edgeCache().put(cacheKey, response()));
  return response();
}

/** An endorsement's signed credential (decision 072): stored as signed, never signed again here. */
async function servedEndorsement(c: Context<WorkerEnv>) {
  const id = c.req.param("id");
  const row = id && UUID.test(id) ? await findEndorsementCredential(c.get("loadContext").db, id) : null;
  return row ? { id: row.id, json: JSON.parse(row.credential) as unknown } : null;
}

export const credentialRoutes = new Hono<WorkerEnv>()
  .options("/orgs/*", preflight)
  .options("/people/*", preflight)
  .options("/credentials/*", preflight)
  .options("/endorsements/*", preflight)
  .get("/orgs/:organizationId/did.json", async (c) => {
    const organizationId = c.req.param("organizationId");
    if (!UUID.test(organizationId)) return notFound(c);
    // A domain verified or removed reaches verifiers within a minute too.
    return servedDidDocument(c, didDocumentPath(organizationId), () => didDocument(issuingOf(c), organizationId));
  })
  // A person's did:web (decision 072): the keys their endorsements were signed with.
  .get("/people/:userId/did.json", async (c) => {
    const userId = c.req.param("userId");
    if (!UUID.test(userId)) return notFound(c);
    return servedDidDocument(c, personDidDocumentPath(userId), () => personDidDocument(issuingOf(c), userId));
  })
  .get("/endorsements/:id/download", async (c) => {
    const endorsement = await servedEndorsement(c);
    if (!endorsement) return notFound(c);
    const response = publicJson(c, endorsement.json, "application/vc", 60);
    response.headers.set("Content-Disposition", `attachment; filename="endorsement-${endorsement.id}.json"`);
    return response;
  })
  .get("/endorsements/:id", async (c) => {
    const endorsement = await servedEndorsement(c);
    if (!endorsement) return notFound(c);
    return publicJson(c, endorsement.json, "application/ld+json", 60);
  })
  .get("/credentials/status/:id", async (c) => {
    if (!UUID.test(c.req.param("id"))) return notFound(c);
    const cacheKey = edgeCacheKey(c, statusListPath(c.req.param("id")));
    const cached = await edgeCache().match(cacheKey);
    if (cached) return cached;
    const list = await statusListCredential(issuingOf(c), c.req.param("id"));
    if (!list) return notFound(c);
    // Two responses from one string rather than a clone: a tee'd body would hold the cache write
    // until the client has read its half, and a client that never reads would stall it.
    const response = () => publicJson(c, list, "application/vc+ld+json", PUBLIC_DOCUMENT_MAX_AGE);
    c.executionCtx.waitUntil(edgeCache().put(cacheKey, response()));
    return response();
  })
  .get("/credentials/:id/download", async (c) => {
    // Anyone may download, so a network is throttled (issue 43): a download reads, and may sign once.
    if (!(await consumeRateLimit(c.get("loadContext").db, c.req.raw, "credential-download")))
      return c.json({ error: RATE_LIMIT_MESSAGE }, 429, { "Access-Control-Allow-Origin": "*", "Retry-After": "60" });
    const credential = await servable(c);
    if (!credential) return notFound(c);
    // Issued to the holder's wallet DID while the person keeps it in Settings (decision 066).
    const json = await boundToHolder(issuingOf(c), credential, credential.json);
    const response = publicJson(c, json, "application/vc", 60);
    response.headers.set("Content-Disposition", `attachment; filename="credential-${credential.id}.json"`);
    return response;
  })
  // The holder's signed acceptance (decision 066), for anyone to check: the DIDAuth presentation
  // their wallet signed over the 'accept' exchange's challenge, as it was received.
  .get("/credentials/:id/acceptance", async (c) => {
    const id = c.req.param("id");
    const proof = UUID.test(id) ? await acceptanceProof(c.get("loadContext"), id) : null;
    if (!proof) return notFound(c);
    return publicJson(c, proof.presentation, "application/ld+json", 60);
  })
  .get("/credentials/:id", async (c, next) => {
    const accept = c.req.header("Accept") ?? "";
    // A browser asks for text/html first and gets the human page (Remix); a verifier asks for JSON.
    if (!CREDENTIAL_MEDIA_TYPES.some((type) => accept.includes(type)) || accept.includes("text/html")) return next();
    const credential = await servable(c);
    if (!credential) return notFound(c);
    const response = publicJson(c, credential.json, "application/ld+json", 60);
    response.headers.set("Vary", "Accept");
    return response;
  });
