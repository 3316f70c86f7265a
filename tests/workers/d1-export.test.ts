import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import worker from "#workers/test-app.ts";
import { D1_EXPORTS_PREFIX, exportDatabase, exportKeyOf } from "#workers/d1-export.ts";
import { readEnv } from "#app/utils/env.server.ts";
import { expectConsoleError } from "./console-errors.ts";
import { ORIGIN, createAccount, productionBindings } from "./helpers.ts";

// The nightly D1 export (issue 43, decision 096, docs/operations.md): the daily run asks D1's
// export API (here the local fake of the Cloudflare API, tests/workers/fake-cloudflare.ts) for
// the database as SQL and keeps a file a day in the backup bucket, for as long as its lock holds. And the stand-in that
// answers for that API in development (app/routes/dev.cloudflare.$.ts).

const DAY_MS = 24 * 60 * 60 * 1000;
const TOKEN = "token-d1-export";
const NOW = new Date("2026-11-28T03:00:00Z");
const noWait = async () => {};

/** The Worker's bindings with the export configured for a database of its own (the fake keeps every request). */
function configured(database: string = crypto.randomUUID()) {
  return {
    ...env,
    CLOUDFLARE_ACCOUNT_ID: "0123456789abcdef0123456789abcdef",
    D1_DATABASE_ID: database,
    D1_EXPORT_API_TOKEN: TOKEN,
    CLOUDFLARE_API_BASE: inject("cloudflareApiBase"),
  };
}

/** What the fake API was sent about `database`'s export. */
async function exportRequests(database: string) {
  const requests = (await (await fetch(`${inject("cloudflareApiBase")}/__requests`)).json()) as {
    path: string;
    body: string;
    authorization: string | null;
  }[];
  return requests
    .filter((request) => request.path.endsWith(`/d1/database/${database}/export`))
    .map((request) => ({ body: JSON.parse(request.body) as unknown, authorization: request.authorization }));
}

async function exportKeys() {
  return (await env.MEDIA_BACKUP.list({ prefix: D1_EXPORTS_PREFIX })).objects.map((object) => object.key);
}

describe("the nightly D1 export", () => {
  it("keeps the database's SQL in the backup bucket as the day's file, polling with the export's bookmark", async () => {
    const bindings = configured();
    expect(await exportDatabase(bindings, NOW, noWait)).toMatchObject({ exported: "d1-exports/2026-11-28.sql" });
    const file = await env.MEDIA_BACKUP.get("d1-exports/2026-11-28.sql");
    expect(await file!.text()).toBe(inject("cloudflareExportSql"));
    expect(file!.httpMetadata?.contentType).toBe("application/sql");
    expect(file!.customMetadata).toMatchObject({ exportedAt: NOW.toISOString(), filename: "export.sql" });
    expect(await exportRequests(bindings.D1_DATABASE_ID)).toEqual([
      { body: { output_format: "polling" }, authorization: `Bearer ${TOKEN}` },
      { body: { output_format: "polling", current_bookmark: "bookmark-1" }, authorization: `Bearer ${TOKEN}` },
    ]);
  });

  it("keeps the exports of the bucket lock's 35 days and one more: an older one is deleted once the day's is stored", async () => {
    const day = (days: number) => exportKeyOf(new Date(NOW.getTime() - days * DAY_MS));
    for (const days of [37, 36, 30, 1]) await env.MEDIA_BACKUP.put(day(days), `-- ${days} days ago`);
    await env.MEDIA_BACKUP.put("avatars/someone/avatar.png", "a media copy");
    expect(await exportDatabase(configured(), NOW, noWait)).toMatchObject({ removed: 1 });
    expect(await exportKeys()).toEqual([day(36), day(30), day(1), exportKeyOf(NOW)]);
    expect(await env.MEDIA_BACKUP.head("avatars/someone/avatar.png")).not.toBeNull();
  });

  it("does nothing without an account, a database and a token", async () => {
    const database = crypto.randomUUID();
    expect(await exportDatabase({ ...configured(database), D1_EXPORT_API_TOKEN: "" }, NOW, noWait)).toEqual({
      exported: null,
      bytes: 0,
      removed: 0,
    });
    expect(await exportKeys()).toEqual([]);
    expect(await exportRequests(database)).toEqual([]);
  });

  it("refuses to start with half of its settings", () => {
    expect(() => readEnv({ ...configured(), D1_DATABASE_ID: "" })).toThrow(
      "CLOUDFLARE_ACCOUNT_ID, D1_DATABASE_ID and D1_EXPORT_API_TOKEN are set together or not at all",
    );
    expect(() => readEnv(configured())).not.toThrow();
  });

  it("fails loudly when the export fails, and keeps the older exports", async () => {
    const earlier = exportKeyOf(new Date(NOW.getTime() - 40 * DAY_MS));
    await env.MEDIA_BACKUP.put(earlier, "-- an old export");
    await expect(exportDatabase(configured(inject("cloudflareFailingDatabaseId")), NOW, noWait)).rejects.toThrow(
      "D1 export failed: Export failed",
    );
    expect(await exportKeys()).toEqual([earlier]);
  });

  it("runs last in the daily run, which logs a failure and goes on", async () => {
    const ctx = createExecutionContext();
    const scheduledTime = Date.now();
    await worker.scheduled(createScheduledController({ scheduledTime, cron: "0 3 * * *" }), configured(), ctx);
    await waitOnExecutionContext(ctx);
    expect(await exportKeys()).toEqual([exportKeyOf(new Date(scheduledTime))]);

    expectConsoleError(/"message":"d1 export failed".*D1 export failed: Export failed/);
    const failing = createExecutionContext();
    await worker.scheduled(
      createScheduledController({ scheduledTime, cron: "0 3 * * *" }),
      configured(inject("cloudflareFailingDatabaseId")),
      failing,
    );
    await waitOnExecutionContext(failing);
  });
});

describe("the D1 export API's stand-in (development)", () => {
  const api = "/dev/cloudflare/client/v4/accounts/0123456789abcdef0123456789abcdef/d1/database/db/export";
  async function send(path: string, init: RequestInit = {}, bindings: Record<string, unknown> = {}) {
    const ctx = createExecutionContext();
    const response = await worker.fetch(
      new Request(`${ORIGIN}${path}`, { ...init, headers: { Origin: ORIGIN, ...init.headers } }),
      { ...configured(), ...bindings },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    return response;
  }
  const poll = (body: unknown, token = TOKEN, bindings = {}) =>
    send(
      api,
      {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      },
      bindings,
    );

  it("answers as the API does and serves this Worker's own database as SQL", async () => {
    const person = await createAccount({ name: "Exported Person" });
    const started = (await (await poll({ output_format: "polling" })).json()) as {
      result: { status: string; at_bookmark: string };
    };
    expect(started.result.status).toBe("active");
    const done = (await (
      await poll({ output_format: "polling", current_bookmark: started.result.at_bookmark })
    ).json()) as { success: boolean; result: { status: string; result: { signed_url: string } } };
    expect(done).toMatchObject({ success: true, result: { status: "complete" } });
    const file = new URL(done.result.result.signed_url);
    const sql = await (await send(`${file.pathname}${file.search}`)).text();
    expect(sql).toMatch(/^PRAGMA defer_foreign_keys=TRUE;/);
    expect(sql).toMatch(/CREATE TABLE [`"]?users[`"]? /);
    expect(sql).toContain(person.id);
    // Every table is created before any row is inserted (the order `npm run restore` executes).
    expect(sql.lastIndexOf("CREATE TABLE")).toBeLessThan(sql.indexOf("INSERT INTO"));
  });

  it("refuses another token, a file without its signature, and does not exist in production", async () => {
    expect((await poll({ output_format: "polling" }, "another-token")).status).toBe(403);
    expect((await send("/dev/cloudflare/d1-export.sql?signature=0")).status).toBe(404);
    const production = productionBindings() as unknown as Record<string, unknown>;
    expect((await poll({ output_format: "polling" }, TOKEN, production)).status).toBe(404);
  });
});
