import { AsyncLocalStorage } from "node:async_hooks";
import type { MiddlewareHandler } from "hono";
import { log } from "./request-log.ts";
import type { WorkerEnv } from "../types.ts";

/**
 * Injected faults (issue 34): a request may ask for some of the bindings' calls to fail, as an
 * outage would, so that tests (the fault matrix, tests/workers/fault-matrix/) and the chaos soak
 * see what a person sees when a part of the platform fails: the failure happens at the binding
 * or at the outside call, under the app's own code, which runs unchanged.
 *
 * THE SWITCH: only a Worker whose ENVIRONMENT is exactly "test" honours the request header. Any
 * other value (production's wrangler.toml value, unset, misspelt, even "development") is not
 * "test", so a deployment cannot turn it on by leaving something out (the same fail-closed
 * reading as `isProduction`, stricter still). Tests, the e2e server and the soak set "test".
 *
 * The header lists rules, comma-separated (decision 076):
 * - `d1:<statement>:<table>`, where <statement> is select, insert, update, delete or * and <table>
 *   a table name or *. A D1 call (a statement, or a batch holding one) whose SQL is that kind of
 *   statement and names that table fails with a D1 error, and nothing of it runs (a batch fails
 *   whole, as D1's does).
 * - `r2:put`, `r2:multipart` (creating or resuming a multipart upload), `r2:delete`, `r2:*`: that
 *   call of the MEDIA bucket fails, and nothing of it is stored or deleted.
 * - `do:notify`: every call of a notification hub's stub (NOTIFICATIONS) fails, as an
 *   unreachable Durable Object does.
 * - `mail`: sending mail fails (the provider's API, or the local mailbox's insert).
 * - `stripe`: a call of Stripe's API fails; `purge`: a call of Cloudflare's cache purge API fails.
 * - `sign`: signing with a private key fails (WebCrypto's `sign` with any algorithm but HMAC, so
 *   credentials, endorsements and tokens fail to sign while session cookies, which are HMACs, work).
 * Every injected failure is logged (`fault injected`, with the request id), so a 5xx can be
 * matched to its fault.
 */
export const FAULT_HEADER = "X-Inject-Fault";

/** Whether these bindings honour injected faults: the one switch (see above). */
export const faultInjectionEnabled = (bindings: { ENVIRONMENT?: unknown }) => bindings.ENVIRONMENT === "test";

type D1Rule = { statement: string; table: string };
/** The parts other than D1 a rule may fail. */
const PARTS = ["r2:put", "r2:multipart", "r2:delete", "do:notify", "mail", "stripe", "purge", "sign"] as const;
type Part = (typeof PARTS)[number];

/** The header's rules: D1's, and the other parts named (`r2:*` names every R2 call). */
export function parseRules(header: string) {
  const rules = header.split(",").map((rule) => rule.trim().toLowerCase());
  const d1 = rules
    .map((rule) => rule.split(":"))
    .filter((parts) => parts.length === 3 && parts[0] === "d1")
    .map(([, statement, table]) => ({ statement: statement!, table: table! }));
  const parts = new Set<Part>(
    rules.flatMap((rule) =>
      rule === "r2:*" ? (["r2:put", "r2:multipart", "r2:delete"] as const) : PARTS.filter((part) => part === rule),
    ),
  );
  // The local mailbox is a D1 table: mail failing is its insert failing.
  if (parts.has("mail")) d1.push({ statement: "insert", table: "dev_mail" });
  return { d1, parts };
}

const STATEMENT = /^\s*(select|insert|update|delete|with|replace)\b/i;

/** The rule this SQL falls under, if any. */
function matchingRule(sql: string, rules: D1Rule[]) {
  const statement = STATEMENT.exec(sql)?.[1]?.toLowerCase();
  return rules.find(
    (rule) =>
      (rule.statement === "*" || rule.statement === statement) &&
      (rule.table === "*" || new RegExp(`(^|[^\\w])"?${rule.table}"?([^\\w]|$)`, "i").test(sql)),
  );
}

export const injectFaults: MiddlewareHandler<WorkerEnv> = async (c, next) => {
  const header = c.req.header(FAULT_HEADER);
  if (!header || !faultInjectionEnabled(c.env)) return next();
  const { d1: rules, parts } = parseRules(header);
  if (rules.length === 0 && parts.size === 0) return next();
  const requestId = c.get("requestId");
  const fail = (sql: string, rule: D1Rule) => {
    const fault = rule.table === "dev_mail" && parts.has("mail") ? "mail" : `d1:${rule.statement}:${rule.table}`;
    log("warn", "fault injected", { requestId, fault, sql: sql.slice(0, 200) });
    return Promise.reject(new Error(`D1_ERROR: injected fault (${fault})`));
  };
  const failPart = (fault: Part, detail: string) => {
    log("warn", "fault injected", { requestId, fault, detail: detail.slice(0, 200) });
    return Promise.reject(new Error(`injected fault (${fault})`));
  };
  const env = { ...c.env };
  if (rules.length) env.DB = faultyD1(c.env.DB, rules, fail);
  if (["r2:put", "r2:multipart", "r2:delete"].some((part) => parts.has(part as Part))) {
    env.MEDIA = faultyBucket(c.env.MEDIA, parts, failPart);
  }
  if (parts.has("do:notify")) env.NOTIFICATIONS = faultyNamespace(c.env.NOTIFICATIONS, failPart);
  c.env = env;
  const outside = (["mail", "stripe", "purge", "sign"] as const).filter((part) => parts.has(part));
  if (outside.length === 0) return next();
  installFaultyGlobals();
  const stripeBase = c.env.STRIPE_API_BASE || "https://api.stripe.com";
  return outsideFaults.run({ parts: new Set(outside), stripeBase, fail: failPart }, next);
};

/** The outside calls (and signing) this request's rules fail (the wrappers below read it). */
type OutsideFaults = { parts: Set<Part>; stripeBase: string; fail: (fault: Part, detail: string) => Promise<never> };
const outsideFaults = new AsyncLocalStorage<OutsideFaults>();

/** Which outside part a URL is, if one this request fails. */
function outsidePart(url: URL, faults: OutsideFaults): Part | null {
  if (faults.parts.has("mail") && url.hostname === "api.resend.com") return "mail";
  if (faults.parts.has("purge") && url.pathname.endsWith("/purge_cache")) return "purge";
  if (faults.parts.has("stripe") && `${url.origin}${url.pathname}`.startsWith(faults.stripeBase)) return "stripe";
  return null;
}

/**
 * The Worker's fetch and WebCrypto's sign, wrapped (once, and only in a test Worker asked for such
 * a fault): a call made under a request whose rules fail its part fails, as a timeout or a broken
 * key would; every other call, and every call of another request, runs as it is.
 */
let globalsWrapped = false;
function installFaultyGlobals() {
  if (globalsWrapped) return;
  globalsWrapped = true;
  const subtle = crypto.subtle;
  const sign = subtle.sign.bind(subtle);
  subtle.sign = ((algorithm: AlgorithmIdentifier, key: CryptoKey, data: BufferSource) => {
    const faults = outsideFaults.getStore();
    const name = typeof algorithm === "string" ? algorithm : algorithm.name;
    if (faults?.parts.has("sign") && name.toUpperCase() !== "HMAC") return faults.fail("sign", name);
    return sign(algorithm, key, data);
  }) as typeof subtle.sign;
  const original = globalThis.fetch;
  globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    const faults = outsideFaults.getStore();
    if (faults) {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const part = outsidePart(url, faults);
      if (part) return faults.fail(part, url.href);
    }
    return original(input, init);
  }) as typeof fetch;
}

type FailPart = (fault: Part, detail: string) => Promise<never>;

/** The bucket, with the calls the rules name failing (nothing stored or deleted). */
function faultyBucket(bucket: R2Bucket, parts: Set<Part>, fail: FailPart): R2Bucket {
  const failing: Record<string, Part> = {
    put: "r2:put",
    createMultipartUpload: "r2:multipart",
    resumeMultipartUpload: "r2:multipart",
    delete: "r2:delete",
  };
  return new Proxy(bucket, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      const part = failing[property as string];
      if (part && parts.has(part)) {
        // resumeMultipartUpload answers an object synchronously: its calls fail instead.
        if (property === "resumeMultipartUpload") {
          return (key: string) => failingStub(fail, part, key) as unknown as R2MultipartUpload;
        }
        return (key: unknown) => fail(part, String(Array.isArray(key) ? key.join(" ") : key));
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** An object every method call of which fails (an unreachable Durable Object's stub, say). */
function failingStub(fail: FailPart, part: Part, detail: string) {
  return new Proxy(
    {},
    {
      get(_, property) {
        if (property === "then" || typeof property === "symbol") return undefined;
        return () => fail(part, `${detail} ${String(property)}`);
      },
    },
  );
}

/** The notification hubs' namespace, whose stubs all fail. */
function faultyNamespace<T extends object>(namespace: T, fail: FailPart): T {
  return new Proxy(namespace, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property === "get" || property === "getByName") {
        return (id: unknown) => failingStub(fail, "do:notify", String(id));
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

type Fail = (sql: string, rule: D1Rule) => Promise<never>;
const SQL = Symbol("sql");
const RAW = Symbol("raw statement");
const STATEMENT_CALLS = new Set(["first", "all", "run", "raw"]);

function faultyStatement(statement: D1PreparedStatement, sql: string, rules: D1Rule[], fail: Fail) {
  return new Proxy(statement, {
    get(target, property, receiver) {
      if (property === SQL) return sql;
      if (property === RAW) return target;
      if (property === "bind")
        return (...values: unknown[]) => faultyStatement(target.bind(...values), sql, rules, fail);
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      if (STATEMENT_CALLS.has(property as string)) {
        return (...args: unknown[]) => {
          const rule = matchingRule(sql, rules);
          return rule ? fail(sql, rule) : value.apply(target, args);
        };
      }
      return value.bind(target);
    },
  });
}

function faultyD1<T extends D1Database | D1DatabaseSession>(db: T, rules: D1Rule[], fail: Fail): T {
  return new Proxy(db, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property === "withSession") {
        return (start?: string) => faultyD1((target as D1Database).withSession(start), rules, fail);
      }
      if (property === "prepare") {
        return (sql: string) => faultyStatement(target.prepare(sql), sql, rules, fail);
      }
      if (property === "batch") {
        return (statements: D1PreparedStatement[]) => {
          for (const statement of statements) {
            const sql = (statement as unknown as Record<symbol, string>)[SQL] ?? "";
            const rule = matchingRule(sql, rules);
            if (rule) return fail(sql, rule);
          }
          return target.batch(statements.map(unwrap));
        };
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

function unwrap(statement: D1PreparedStatement) {
  return (statement as unknown as Record<symbol, D1PreparedStatement>)[RAW] ?? statement;
}
