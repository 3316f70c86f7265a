import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
// @ts-ignore -- the Remix server build exists only after `npm run build`.
import * as build from "../../../build/server/index.js";
import { AUTH_API_ENDPOINTS, app } from "#workers/test-app.ts";
import { ORIGIN, get } from "../helpers.ts";
import { expectUnchanged, send } from "./check.ts";
import { ROWS } from "./rows.ts";
import { seededWorld } from "./suite.ts";
import { CALLERS, label, type Row } from "./table.ts";

// The authorization matrix's other half (issue 9, items 1 and 5): every mutation in the table is
// refused when it comes from another site, whoever sends it; and the table covers every route.

const seeded = seededWorld();

describe("cross-site requests (every mutation in the table)", () => {
  const mutations = ROWS.filter((row) => row.kind === "action");
  const foreign: [string, Record<string, string>][] = [
    ["a foreign Origin", { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" }],
    ["a foreign Origin without fetch metadata", { Origin: "https://evil.example", "Sec-Fetch-Site": "" }],
    ["an opaque (null) Origin", { Origin: "null" }],
    ["Sec-Fetch-Site: cross-site", { "Sec-Fetch-Site": "cross-site" }],
  ];
  for (const row of mutations) {
    // The caller for whom the call would succeed (else the first one named), so only the check stops it.
    const caller = CALLERS.find((c) => row.cells[c] === "ok") ?? "admin";
    for (const [name, headers] of foreign) {
      it(`${label(row)} as ${caller} with ${name}: ${row.crossSiteExempt ? "exempt" : 403}`, async () => {
        const { world, before } = seeded;
        const sent = Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== ""));
        const call = row.call(world, caller);
        const response = await send(world, caller, call, sent);
        if (row.crossSiteExempt && row.cells[caller] === "ok") {
          // Exempt, and open to anyone: the OpenID4VCI nonce endpoint answers a wallet anywhere
          // (its one change, a stored nonce, is what it is for).
          expect(row.ok).toContain(response.status);
          await response.arrayBuffer();
          return;
        }
        if (row.crossSiteExempt) {
          // Exempt from the Origin check, and still refused as it is from our own origin: Stripe's
          // webhook without a valid signature (400), a wallet exchange without a DIDAuth (401, 404),
          // an OpenID4VCI token or credential request without a code or token (400, 401).
          expect(response.status).toBe(row.cells[caller]);
        } else {
          expect(response.status).toBe(403);
        }
        await response.arrayBuffer();
        await expectUnchanged(world, before);
      });
    }
  }

  it("the WebSocket upgrade refuses a foreign or missing Origin, even with a valid session", async () => {
    for (const origin of ["https://evil.example", "null", undefined]) {
      const response = await SELF.fetch(`${ORIGIN}/api/notifications/socket`, {
        headers: {
          Upgrade: "websocket",
          Cookie: seeded.world.users.member.cookie,
          ...(origin ? { Origin: origin } : {}),
        },
      });
      expect(response.status).toBe(403);
      expect(response.webSocket).toBeNull();
    }
  });

  it("pages cannot be framed", async () => {
    for (const [path, cookie] of [
      ["/", undefined],
      ["/auth", undefined],
      ["/dashboard", seeded.world.users.admin.cookie],
      [`/passport/${seeded.world.users.recipient.id}`, undefined],
    ] as const) {
      const response = await get(path, cookie);
      expect(response.headers.get("X-Frame-Options")).toBe("DENY");
      expect(response.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
      await response.arrayBuffer();
    }
  });
});

describe("the table covers every route", () => {
  const listed = (kind: Row["kind"]) => new Set(ROWS.filter((row) => row.kind === kind).map((row) => row.route));

  it("every loader and action a route module exports", () => {
    const routes = (build as unknown as { routes: Record<string, { module: { loader?: unknown; action?: unknown } }> })
      .routes;
    const missing: string[] = [];
    for (const [id, route] of Object.entries(routes)) {
      if (id === "root") continue;
      if (route.module.loader && !listed("loader").has(id)) missing.push(`${id} loader`);
      if (route.module.action && !listed("action").has(id)) missing.push(`${id} action`);
    }
    expect(missing).toEqual([]);
    // And nothing listed that no longer exists.
    const remix = ROWS.filter((row) => row.route.startsWith("routes/"));
    expect(remix.filter((row) => !routes[row.route]?.module[row.kind]).map(label)).toEqual([]);
  });

  it("every Hono route and every served auth endpoint", () => {
    const hono = new Set(
      ROWS.filter((row) => row.route.startsWith("hono:")).map((row) => row.route.slice("hono:".length)),
    );
    const handlers = app.routes
      .filter((route) => route.path !== "/*" && route.path !== "*" && route.method !== "ALL")
      .map((route) => `${route.method} ${route.path.replace(/(.)\/$/, "$1")}`)
      .filter((route) => !route.includes("/api/auth/"));
    expect(handlers.filter((route) => !hono.has(route))).toEqual([]);
    expect([...AUTH_API_ENDPOINTS].filter((endpoint) => !hono.has(endpoint))).toEqual([]);
  });

  it("every action row is checked for cross-site requests", () => {
    expect(ROWS.filter((row) => row.kind === "action" && row.call(seeded.world, "admin").method !== "POST")).toEqual(
      [],
    );
  });
});
