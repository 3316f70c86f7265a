/// <reference types="node" />
// The Digital Credentials Consortium's verifier (@digitalcredentials/verifier-core), run in Node
// by Vitest before the Workers pool starts: an engine nobody on this team wrote, checking what
// the app issues. It is offline: its fetch is answered only from the documents a test hands over
// with each credential (the app's own DID document and status list responses) and from the
// bundled Open Badges 3.0 JSON Schema; anything else is a network error.
//
// POST /domain-linkage checks a DIF DID Configuration resource with two more outside engines, on
// the same offline fetch: the Sphereon wellknown-dids-client validates the resource and each
// DomainLinkageCredential as the DIF spec describes them, and hands each signature to the DCC's
// engine (@digitalcredentials/vc with the eddsa-rdfc-2022 Data Integrity suite and the DCC's
// document loader: what verifier-core runs inside). verifier-core itself cannot be asked: it
// refuses any credential whose `id` is not a URL, and the DIF spec forbids a DomainLinkageCredential
// an `id` (tests/workers/domain-linkage.test.ts).
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    dccVerifierUrl: string;
  }
}

type Served = { status: number; contentType: string; body: string };
/** A credential for verifier-core, or a DID Configuration resource and the DID it should link. */
type Posted = { documents: Record<string, Served>; credential?: unknown; configuration?: unknown; did?: string };

const SCHEMA_URL = "https://purl.imsglobal.org/spec/ob/v3p0/schema/json/ob_v3p0_achievementcredential_schema.json";
// The EndorsementCredential schema verifier-core asks for (issue 33, decision 072), vendored beside
// the other: 1EdTech's published file at this URL, as conform-ed/conform-ed vendors it (commit
// 714798c, packages/coverage/vendor/open-badges/v3_0/); 1EdTech's own repository has no JSON files.
const ENDORSEMENT_SCHEMA_URL =
  "https://purl.imsglobal.org/spec/ob/v3p0/schema/json/ob_v3p0_endorsementcredential_schema.json";

/**
 * One verifier per test process, whichever projects ask for it (vitest.config.ts has two, and
 * each imports this module anew, hence globalThis): its fetch is the process's global one, so a
 * second would answer from the first one's documents.
 */
type Shared = { verifier?: Promise<{ url: string; close: () => Promise<void> }>; users: number };
const shared = ((globalThis as { __dccVerifier?: Shared }).__dccVerifier ??= { users: 0 });

export default async function setup(project: TestProject) {
  shared.users++;
  shared.verifier ??= startVerifier();
  const { url, close } = await shared.verifier;
  project.provide("dccVerifierUrl", url);
  return async () => {
    if (--shared.users === 0) await close();
  };
}

async function startVerifier() {
  const schema = await readFile(
    new URL("../../app/services/credentials/ob_v3p0_achievementcredential_schema.json", import.meta.url),
    "utf8",
  );
  const endorsementSchema = await readFile(
    new URL("../../app/services/credentials/ob_v3p0_endorsementcredential_schema.json", import.meta.url),
    "utf8",
  );
  let served = new Map<string, Served>();
  const requested: string[] = [];
  const realFetch = globalThis.fetch;
  // Installed before the verifier is imported, so its HTTP client can only ever see this.
  globalThis.fetch = async (input: string | URL | Request) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    requested.push(url);
    const vendored = url === SCHEMA_URL ? schema : url === ENDORSEMENT_SCHEMA_URL ? endorsementSchema : null;
    const answer = vendored ? { status: 200, contentType: "application/json", body: vendored } : served.get(url);
    if (!answer) throw new TypeError(`offline: no document for ${url}`);
    return new Response(answer.body, { status: answer.status, headers: { "Content-Type": answer.contentType } });
  };
  const { verifyCredential } = await import("@digitalcredentials/verifier-core");
  const checkDomainLinkage = await domainLinkageChecker();

  // One verification at a time: the served documents are global to the fetch above.
  let queue = Promise.resolve();
  const server = createServer(async (request, response) => {
    let body = "";
    for await (const chunk of request) body += chunk;
    const run = queue.then(async () => {
      const { documents, credential, configuration, did } = JSON.parse(body) as Posted;
      served = new Map(Object.entries(documents));
      requested.length = 0;
      const result = request.url?.startsWith("/domain-linkage")
        ? await checkDomainLinkage({ configuration, did: did ?? "" })
        : await verifyCredential({ credential, knownDIDRegistries: [] } as never);
      return { result, requested: [...requested] };
    });
    queue = run.then(
      () => undefined,
      () => undefined,
    );
    try {
      const outcome = await run;
      response.writeHead(200, { "Content-Type": "application/json" });
      response.end(JSON.stringify(outcome, (key, value) => (key === "stackTrace" ? String(value) : value)));
    } catch (error) {
      response.writeHead(500, { "Content-Type": "text/plain" });
      response.end(String(error instanceof Error ? error.stack : error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        globalThis.fetch = realFetch;
        server.close(() => resolve());
      }),
  };
}

/**
 * Sphereon's verifier on a DID Configuration resource (`configuration`, for `did`), with the DCC's
 * engine as its signature callback. Answers Sphereon's verdict (a rejection is a verdict too: it
 * says why) and the engine's answer for each credential it was given.
 */
async function domainLinkageChecker() {
  const { WellKnownDidVerifier } = await import("@sphereon/wellknown-dids-client");
  const vc = await import("@digitalcredentials/vc");
  const { DataIntegrityProof } = await import("@digitalcredentials/data-integrity");
  const { cryptosuite } = await import("@digitalcredentials/eddsa-rdfc-2022-cryptosuite");
  const { securityLoader } = await import("@digitalcredentials/security-document-loader");
  const documentLoader = securityLoader({ fetchRemoteContexts: true }).build();
  const suite = new DataIntegrityProof({ cryptosuite });

  return async ({ configuration, did }: { configuration: unknown; did: string }) => {
    const signatures: { verified: boolean; log?: unknown; error?: string }[] = [];
    const verifier = new WellKnownDidVerifier({
      verifySignatureCallback: async ({ credential, proofFormat }) => {
        // The engine reads JSON-LD credentials only; a JWT entry is not ours to check here.
        if (proofFormat !== "jsonld") return { verified: false };
        const result = await vc.verifyCredential({ credential, suite, documentLoader });
        signatures.push({ verified: result.verified, log: result.log, error: result.error?.message });
        return { verified: result.verified };
      },
    });
    const sphereon = await verifier
      .verifyResource({ configuration: configuration as never, did })
      .catch((rejection: unknown) =>
        rejection instanceof Error ? { status: "error", message: rejection.message } : rejection,
      );
    return { sphereon, signatures };
  };
}
