import { env } from "cloudflare:test";
import { expect } from "vitest";
import { ORIGIN, fetchApp, newClientIp } from "../helpers.ts";
import type { Call, Caller, Outcome, Row } from "./table.ts";
import type { World } from "./world.ts";

// Sending a cell's call as its caller, and checking what came back.

export async function send(world: World, caller: Caller, call: Call, headers: Record<string, string> = {}) {
  const cookie = caller === "anon" ? undefined : world.users[caller].cookie;
  const init: RequestInit = {
    method: call.method,
    redirect: "manual",
    headers: {
      // As a browser sends it: same-origin, Origin and Host, from a distinct address.
      Origin: ORIGIN,
      Host: new URL(ORIGIN).host,
      "Sec-Fetch-Site": "same-origin",
      "cf-connecting-ip": newClientIp(),
      ...(cookie ? { Cookie: cookie } : {}),
      ...call.headers,
      ...headers,
    },
  };
  if (call.body instanceof FormData) init.body = call.body;
  else if (call.body && "json" in call.body) {
    init.body = JSON.stringify(call.body.json);
    (init.headers as Record<string, string>)["Content-Type"] = "application/json";
    if (call.sign) Object.assign(init.headers as Record<string, string>, await call.sign(init.body));
  } else if (call.body) {
    init.body = new URLSearchParams(call.body as Record<string, string>);
    (init.headers as Record<string, string>)["Content-Type"] = "application/x-www-form-urlencoded";
  }
  return fetchApp(new Request(`${ORIGIN}${call.path}`, init));
}

/** The tables a snapshot reads: all of them but D1's own and the rate-limit counters. Fixed by the migrations. */
let tables: Promise<string[]> | undefined;
const tableNames = () =>
  (tables ??= env.DB.prepare(
    "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '_cf_%' and name not in ('d1_migrations', 'rate_limits') order by name",
  )
    .all<{ name: string }>()
    .then(({ results }) => results.map(({ name }) => name)));

export type Snapshot = Awaited<ReturnType<typeof snapshot>>;

/** Every table's rows (rate-limit counters aside), read in one D1 batch, and every R2 object. */
export async function snapshot(world: World) {
  const names = await tableNames();
  const results = await env.DB.batch(names.map((name) => env.DB.prepare(`select * from "${name}"`)));
  const rows: Record<string, string> = {};
  names.forEach((name, index) => {
    let result = results[index]!.results as Record<string, unknown>[];
    // Signing an archived account out ends its session: that is the point of the redirect.
    if (name === "sessions") result = result.filter((row) => row.user_id !== world.users.archived.id);
    rows[name] = JSON.stringify(result);
  });
  const objects: string[] = [];
  let cursor: string | undefined;
  do {
    const listing = await env.MEDIA.list({ cursor });
    objects.push(...listing.objects.map((object) => `${object.key} ${object.etag}`));
    cursor = listing.truncated ? listing.cursor : undefined;
  } while (cursor);
  return { rows, objects: objects.sort() };
}

/** Fails naming the tables (or R2) that changed, then shows how. */
/**
 * Fails naming the tables (or R2) that changed since `before`, then shows how. Every test starts
 * from the seeded world (storage is rolled back after each), so `before` is taken once per file.
 */
export async function expectUnchanged(world: World, before: Snapshot) {
  const after = await snapshot(world);
  const changed = Object.keys(before.rows).filter((table) => before.rows[table] !== after.rows[table]);
  if (before.objects.join() !== after.objects.join()) changed.push("R2");
  expect(
    changed,
    JSON.stringify(changed.map((table) => [table, before.rows[table], after.rows[table]])).slice(0, 3000),
  ).toEqual([]);
}

export function checkOutcome(row: Row, outcome: Outcome, response: Response) {
  const location = response.headers.get("Location");
  switch (outcome) {
    case "ok":
      expect(row.ok).toContain(response.status);
      break;
    case "noop":
      // A refusal toast is answered on the same page with 400 (decision 017), or as the row's ok.
      expect([...row.ok, 400]).toContain(response.status);
      break;
    case "signin":
      expect(response.status).toBe(302);
      expect(location).toMatch(/^\/auth(\?redirectTo=.+)?$/);
      break;
    case "signout":
      expect(response.status).toBe(302);
      expect(location).toBe("/");
      expect(
        response.headers
          .getSetCookie()
          .some((line) => /passport\.session_token=;|passport\.session_token=.*max-age=0/i.test(line)),
      ).toBe(true);
      break;
    case "dashboard":
      expect(response.status).toBe(302);
      expect(location).toBe("/dashboard");
      break;
    default:
      expect(response.status).toBe(outcome);
  }
}

export async function finish(row: Row, response: Response) {
  if (row.webSocket && response.webSocket) {
    response.webSocket.accept();
    response.webSocket.close(1000, "done");
  } else await response.arrayBuffer();
}
