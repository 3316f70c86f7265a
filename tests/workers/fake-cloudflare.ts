/// <reference types="node" />
// A local fake of Cloudflare's cache purge API, run by Vitest (in Node) before the Workers pool
// starts, like the fake Stripe. Tests aim the app at it through CLOUDFLARE_API_BASE, so no purge
// reaches Cloudflare. It answers as the API does: 200 `{"success": true, ...}` for a purge, and
// for the zone FAILING_ZONE_ID the error Cloudflare sends for a token without the permission.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    cloudflareApiBase: string;
    /** A zone whose purges fail, for the test that a failed purge does not fail the change. */
    cloudflareFailingZoneId: string;
  }
}

const FAILING_ZONE_ID = "f".repeat(32);

type Recorded = { method: string; path: string; body: string; authorization: string | null };

export default async function setup(project: TestProject) {
  const requests: Recorded[] = [];
  const server = createServer(async (request, response) => {
    let body = "";
    for await (const chunk of request) body += chunk;
    const path = request.url ?? "/";
    const json = (status: number, value: unknown) => {
      response.writeHead(status, { "Content-Type": "application/json" });
      response.end(JSON.stringify(value));
    };
    if (path === "/__requests") return json(200, requests);
    requests.push({
      method: request.method ?? "GET",
      path,
      body,
      authorization: request.headers.authorization ?? null,
    });
    const purge = /^\/client\/v4\/zones\/([0-9a-f]{32})\/purge_cache$/.exec(path);
    if (request.method === "POST" && purge) {
      if (purge[1] === FAILING_ZONE_ID) {
        return json(403, {
          success: false,
          errors: [{ code: 10000, message: "Authentication error" }],
          messages: [],
          result: null,
        });
      }
      return json(200, { success: true, errors: [], messages: [], result: { id: purge[1] } });
    }
    return json(404, { success: false, errors: [{ code: 7003, message: `No fake for ${request.method} ${path}` }] });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  project.provide("cloudflareFailingZoneId", FAILING_ZONE_ID);
  project.provide("cloudflareApiBase", `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
