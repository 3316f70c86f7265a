/// <reference types="node" />
// A local fake of Cloudflare's cache purge API, run by Vitest (in Node) before the Workers pool
// starts, like the fake Stripe. Tests aim the app at it through CLOUDFLARE_API_BASE, so no purge
// reaches Cloudflare. It answers as the API does: 200 `{"success": true, ...}` for a purge, and
// for the zone FAILING_ZONE_ID the error Cloudflare sends for a token without the permission.
import { startFakeApi } from "./fake-api.ts";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    cloudflareApiBase: string;
    /** A zone whose purges fail, for the test that a failed purge does not fail the change. */
    cloudflareFailingZoneId: string;
  }
}

const FAILING_ZONE_ID = "f".repeat(32);

export default async function setup(project: TestProject) {
  const fake = await startFakeApi(({ method, path }) => {
    const purge = /^\/client\/v4\/zones\/([0-9a-f]{32})\/purge_cache$/.exec(path);
    if (method === "POST" && purge) {
      if (purge[1] === FAILING_ZONE_ID) {
        return {
          status: 403,
          body: {
            success: false,
            errors: [{ code: 10000, message: "Authentication error" }],
            messages: [],
            result: null,
          },
        };
      }
      return { status: 200, body: { success: true, errors: [], messages: [], result: { id: purge[1] } } };
    }
    return {
      status: 404,
      body: { success: false, errors: [{ code: 7003, message: `No fake for ${method} ${path}` }] },
    };
  });
  project.provide("cloudflareFailingZoneId", FAILING_ZONE_ID);
  project.provide("cloudflareApiBase", fake.base);
  return fake.close;
}
