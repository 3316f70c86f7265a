/// <reference types="node" />
// A local fake of Cloudflare's cache purge and D1 export APIs, run by Vitest (in Node) before the
// Workers pool starts, like the fake Stripe. Tests aim the app at it through CLOUDFLARE_API_BASE,
// so no call reaches Cloudflare. It answers as the API does: 200 `{"success": true, ...}` for a
// purge, and for the zone FAILING_ZONE_ID the error Cloudflare sends for a token without the
// permission; an export is "active" until polled with its bookmark, then "complete" with the
// address of FAKE_EXPORT_SQL (for the database FAILING_DATABASE_ID, "error").
import { startFakeApi } from "./fake-api.ts";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    cloudflareApiBase: string;
    /** A zone whose purges fail, for the test that a failed purge does not fail the change. */
    cloudflareFailingZoneId: string;
    /** The SQL the fake's D1 export serves, and a database whose export fails. */
    cloudflareExportSql: string;
    cloudflareFailingDatabaseId: string;
  }
}

const FAILING_ZONE_ID = "f".repeat(32);
const FAILING_DATABASE_ID = "ffffffff-ffff-4fff-8fff-ffffffffffff";
const FAKE_EXPORT_SQL = "PRAGMA defer_foreign_keys=TRUE;\nCREATE TABLE t (x);\nINSERT INTO t VALUES('fake export');\n";
const envelope = (result: unknown) => ({ status: 200, body: { success: true, errors: [], messages: [], result } });

export default async function setup(project: TestProject) {
  let base = "";
  const fake = await startFakeApi(({ method, path, body }) => {
    const exporting = /^\/client\/v4\/accounts\/[0-9a-f]{32}\/d1\/database\/([0-9a-f-]{36})\/export$/.exec(path);
    if (method === "POST" && exporting) {
      const { current_bookmark: bookmark } = JSON.parse(body) as { current_bookmark?: string };
      if (exporting[1] === FAILING_DATABASE_ID) return envelope({ status: "error", error: "Export failed" });
      if (!bookmark) return envelope({ status: "active", at_bookmark: "bookmark-1", messages: [] });
      return envelope({
        status: "complete",
        at_bookmark: bookmark,
        messages: [],
        result: { filename: "export.sql", signed_url: `${base}/exports/${exporting[1]}.sql` },
      });
    }
    if (method === "GET" && path.startsWith("/exports/")) {
      return { status: 200, body: FAKE_EXPORT_SQL, contentType: "application/sql" };
    }
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
  base = fake.base;
  project.provide("cloudflareFailingZoneId", FAILING_ZONE_ID);
  project.provide("cloudflareFailingDatabaseId", FAILING_DATABASE_ID);
  project.provide("cloudflareExportSql", FAKE_EXPORT_SQL);
  project.provide("cloudflareApiBase", fake.base);
  return fake.close;
}
