import { env } from "cloudflare:test";
import { Hono } from "hono";
import { afterEach, describe, expect, inject, it } from "vitest";
import { createDb } from "#db/client.ts";
import { insertDevMail } from "#db/queries/dev-mail.ts";
import { injectFaults, parseRules, seededRandom } from "../../../workers/testing/faults.ts";
import type { WorkerEnv } from "../../../workers/types.ts";
import { chanceFault } from "../../../scripts/soak/faults.mjs";
import { FAULT_HEADER } from "./cells.ts";

// The chance rule of the one switch (issue 34's chaos soak, decision 078): `chance:<percent>:<seed>`
// fails each call of D1, R2 (put, multipart, delete), the notification hub, mail and Stripe with
// that probability, drawn from a PRNG seeded by the seed. The calls here are real: the pool's
// local D1, R2 bucket and Durable Objects, under the switch's own middleware, as a request makes them.

type Part = "d1" | "batch" | "r2" | "do" | "mail" | "stripe";

/** Makes `calls` calls of a part while serving one request, and answers which of them failed. */
const app = new Hono<WorkerEnv>()
  .use(async (c, next) => {
    c.set("requestId", c.req.header("X-Test-Request") ?? "chance-test");
    await next();
  })
  .use(injectFaults)
  .get("/calls/:part/:calls", async (c) => {
    const part = c.req.param("part") as Part;
    const failed: number[] = [];
    const prefix = `chance/${crypto.randomUUID()}/`;
    for (let i = 0; i < Number(c.req.param("calls")); i++) {
      const call = async () => {
        if (part === "d1") return c.env.DB.prepare("select ? as n").bind(i).first();
        if (part === "batch") return c.env.DB.batch([c.env.DB.prepare("select 1"), c.env.DB.prepare("select 2")]);
        if (part === "r2") return c.env.MEDIA.put(`${prefix}${i}`, "x");
        if (part === "do") return c.env.PERSON_HUB.get(c.env.PERSON_HUB.idFromName("chance")).broadcast({});
        if (part === "mail") {
          return insertDevMail(createDb(c.env.DB), { to: "chance@example.com", subject: "s", text: "t", html: "h" });
        }
        return fetch(`${c.env.STRIPE_API_BASE}/v1/customers/cus_chance`, {
          headers: { Authorization: "Bearer sk_test_fake" },
        });
      };
      try {
        await call();
      } catch (error) {
        // Drizzle wraps the binding's error (its cause).
        if (!`${error} ${(error as Error).cause}`.includes("injected fault")) throw error;
        failed.push(i);
      }
    }
    const stored = part === "r2" ? (await c.env.MEDIA.list({ prefix })).objects.length : null;
    return c.json({ failed, stored });
  });

let logged: { requestId: string; fault: string; rule?: string }[] = [];
const original = console.warn;
afterEach(() => {
  console.warn = original;
  logged = [];
});

async function calls(part: Part, count: number, rule: string, bindings: Partial<Env> = {}) {
  console.warn = (...args: unknown[]) => {
    const line = String(args[0]);
    if (line.includes('"fault injected"')) logged.push(JSON.parse(line));
  };
  const response = await app.request(
    `/calls/${part}/${count}`,
    { headers: { [FAULT_HEADER]: rule, "X-Test-Request": `${part}-${rule}` } },
    { ...env, ENVIRONMENT: "test", STRIPE_API_BASE: inject("stripeApiBase"), ...bindings } as Env,
  );
  expect(response.status).toBe(200);
  return (await response.json()) as { failed: number[]; stored: number | null };
}

describe("the chance rule", () => {
  it("reads `chance:<percent>:<seed>` beside the other rules, and nothing malformed", () => {
    expect(parseRules("chance:5:run-7.12.3").chance).toEqual({ percent: 5, seed: "run-7.12.3" });
    expect(parseRules("r2:put, Chance:0.5:A:B ").chance).toEqual({ percent: 0.5, seed: "a:b" });
    expect(parseRules("r2:put, Chance:0.5:A:B ").parts).toEqual(new Set(["r2:put"]));
    for (const header of ["chance:5", "chance:5:", "chance::x", "chance:101:x", "chance:-1:x", "chance:five:x"]) {
      expect(parseRules(header).chance).toBeNull();
    }
    expect(parseRules("d1:*:*").chance).toBeNull();
  });

  it("the soak's header is the rule's grammar", () => {
    expect(parseRules(chanceFault(5, "20261126.3.41")).chance).toEqual({ percent: 5, seed: "20261126.3.41" });
  });

  it("draws the same numbers from the same seed, and others from another, about evenly", () => {
    const draws = (seed: string) => Array.from({ length: 20_000 }, seededRandom(seed));
    expect(draws("soak-1")).toEqual(draws("soak-1"));
    expect(draws("soak-1")).not.toEqual(draws("soak-2"));
    for (const seed of ["soak-1", "soak-2", ""]) {
      const values = draws(seed);
      expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
      expect(Math.max(...values)).toBeLessThan(1);
      const share = values.filter((value) => value < 0.05).length / values.length;
      expect(share).toBeGreaterThan(0.045);
      expect(share).toBeLessThan(0.055);
    }
  });

  it("fails about the given share of a request's D1 calls, the same calls for the same seed", async () => {
    const first = await calls("d1", 500, "chance:5:seed-a");
    expect(first.failed.length).toBeGreaterThan(12);
    expect(first.failed.length).toBeLessThan(40);
    // Each failure logged with the request's id, the part and the rule that drew it.
    expect(logged).toHaveLength(first.failed.length);
    expect(logged[0]).toMatchObject({ requestId: "d1-chance:5:seed-a", fault: "d1", rule: "chance:5:seed-a" });
    expect((await calls("d1", 500, "chance:5:seed-a")).failed).toEqual(first.failed);
    expect((await calls("d1", 500, "chance:5:seed-b")).failed).not.toEqual(first.failed);
    expect((await calls("d1", 200, "chance:20:seed-a")).failed.length).toBeGreaterThan(20);
    expect((await calls("d1", 200, "chance:0:seed-a")).failed).toEqual([]);
    expect((await calls("d1", 50, "chance:100:seed-a")).failed).toHaveLength(50);
  });

  it("draws once for a batch, which fails whole", async () => {
    const { failed } = await calls("batch", 400, "chance:10:batch");
    expect(failed.length).toBeGreaterThan(20);
    expect(failed.length).toBeLessThan(65);
  });

  it("fails R2 puts, storing nothing for them, and the rest are stored", async () => {
    const { failed, stored } = await calls("r2", 300, "chance:10:bucket");
    expect(failed.length).toBeGreaterThan(12);
    expect(failed.length).toBeLessThan(50);
    expect(stored).toBe(300 - failed.length);
    expect(logged.every((line) => line.fault === "r2:put")).toBe(true);
  });

  it.each([
    ["do", "do:notify"],
    ["mail", "mail"],
    ["stripe", "stripe"],
  ] as const)("fails %s calls too, each logged as %s", async (part, fault) => {
    const some = await calls(part, 100, "chance:25:parts");
    expect(some.failed.length).toBeGreaterThan(10);
    expect(some.failed.length).toBeLessThan(45);
    expect(new Set(logged.map((line) => line.fault))).toEqual(new Set([fault]));
    expect((await calls(part, 100, "chance:25:parts")).failed).toEqual(some.failed);
    expect((await calls(part, 20, "chance:0:parts")).failed).toEqual([]);
  });

  it.each([["production"], ["development"], ["Test"]])(
    "is ignored when ENVIRONMENT is %s: every call runs",
    async (environment) => {
      for (const part of ["d1", "r2", "mail"] as const) {
        const { failed, stored } = await calls(part, 40, "chance:100:off", { ENVIRONMENT: environment });
        expect(failed).toEqual([]);
        if (part === "r2") expect(stored).toBe(40);
      }
      expect(logged).toEqual([]);
    },
  );
});
