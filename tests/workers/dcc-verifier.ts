/// <reference types="node" />
// The Digital Credentials Consortium's verifier (@digitalcredentials/verifier-core), run in Node
// by Vitest before the Workers pool starts: an engine nobody on this team wrote, checking what
// the app issues. It is offline: its fetch is answered only from the documents a test hands over
// with each credential (the app's own DID document and status list responses) and from the
// bundled Open Badges 3.0 JSON Schema; anything else is a network error.
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

const SCHEMA_URL = "https://purl.imsglobal.org/spec/ob/v3p0/schema/json/ob_v3p0_achievementcredential_schema.json";

export default async function setup(project: TestProject) {
  const schema = await readFile(
    new URL("../../app/services/credentials/ob_v3p0_achievementcredential_schema.json", import.meta.url),
    "utf8",
  );
  let served = new Map<string, Served>();
  const requested: string[] = [];
  const realFetch = globalThis.fetch;
  // Installed before the verifier is imported, so its HTTP client can only ever see this.
  globalThis.fetch = async (input: string | URL | Request) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    requested.push(url);
    const answer =
      url === SCHEMA_URL ? { status: 200, contentType: "application/json", body: schema } : served.get(url);
    if (!answer) throw new TypeError(`offline: no document for ${url}`);
    return new Response(answer.body, { status: answer.status, headers: { "Content-Type": answer.contentType } });
  };
  const { verifyCredential } = await import("@digitalcredentials/verifier-core");

  // One verification at a time: the served documents are global to the fetch above.
  let queue = Promise.resolve();
  const server = createServer(async (request, response) => {
    let body = "";
    for await (const chunk of request) body += chunk;
    const run = queue.then(async () => {
      const { credential, documents } = JSON.parse(body) as { credential: unknown; documents: Record<string, Served> };
      served = new Map(Object.entries(documents));
      requested.length = 0;
      const result = await verifyCredential({ credential, knownDIDRegistries: [] } as never);
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
  project.provide("dccVerifierUrl", `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  return () =>
    new Promise<void>((resolve) => {
      globalThis.fetch = realFetch;
      server.close(() => resolve());
    });
}
