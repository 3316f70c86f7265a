import { AsyncLocalStorage } from "node:async_hooks";
import type { MiddlewareHandler } from "hono";
import { log } from "../middleware/request-log.ts";
import { type D1Watch, watchD1 } from "./d1-calls.ts";
import type { WorkerEnv } from "../types.ts";

/**
 * Injected faults (issue 34): a request may ask for some of the bindings' calls to fail, as an
 * outage would, so that tests (the fault matrix, tests/workers/fault-matrix/) and the chaos soak
 * see what a person sees when a part of the platform fails: the failure happens at the binding
 * or at the outside call, under the app's own code, which runs unchanged.
 *
 * THE SWITCH: only the test entry (workers/test-app.ts) carries it, never the deployed Worker
 * (`npm run worker-size` fails if its header is in the production bundle); and even there only a
 * Worker whose ENVIRONMENT is exactly "test" honours the request header. Any
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
 * - `do:notify`: every call of a person hub's stub (PERSON_HUB) fails, as an
 *   unreachable Durable Object does.
 * - `mail`: sending mail fails (the provider's API, or the local mailbox's insert).
 * - `stripe`: a call of Stripe's API fails; `purge`: a call of Cloudflare's cache purge API fails.
 * - `sign`: signing with a private key fails (WebCrypto's `sign` with any algorithm but HMAC, so
 *   credentials, endorsements and tokens fail to sign while session cookies, which are HMACs, work).
 * - `chance:<percent>:<seed>` (the chaos soak, decision 078): each call of D1 (a statement, or a
 *   batch), of the MEDIA bucket's put, multipart and delete, of a person hub's stub, of mail
 *   and of Stripe made while serving the request fails with that probability, drawn from a small
 *   PRNG (mulberry32 over an FNV-1a hash of <seed>), so the same seed fails the same calls again.
 * Every injected failure is logged (`fault injected`, with the request id), so a 5xx can be
 * matched to its fault.
 */
export const FAULT_HEADER = "X-Inject-Fault";

/** Whether these bindings honour the test entry's switches (faults, test accounts): the one switch (see above). */
export const testSwitchOn = (bindings: { ENVIRONMENT?: unknown }) => bindings.ENVIRONMENT === "test";

type D1Rule = { statement: string; table: string };
/** The parts other than D1 a rule may fail. */
const PARTS = ["r2:put", "r2:multipart", "r2:delete", "do:notify", "mail", "stripe", "purge", "sign"] as const;
type Part = (typeof PARTS)[number];
/** A `chance:<percent>:<seed>` rule: the share of calls that fail, and the seed of their draws. */
type Chance = { percent: number; seed: string };
/** The parts a chance rule fails, as well as every D1 call (issue 34's chaos soak). */
const CHANCE_PARTS: ReadonlySet<Part> = new Set(["r2:put", "r2:multipart", "r2:delete", "do:notify", "mail", "stripe"]);

/** The `chance:<percent>:<seed>` rule, when the header has a well-formed one (percent 0 to 100, a seed). */
function chanceRule(rules: string[]): Chance | null {
  for (const rule of rules) {
    const [kind, percent, ...seed] = rule.split(":");
    const share = Number(percent);
    if (kind !== "chance" || percent === "" || !(share >= 0 && share <= 100) || seed.join(":") === "") continue;
    return { percent: share, seed: seed.join(":") };
  }
  return null;
}

/**
 * Draws in [0, 1) from a seed: mulberry32 seeded by the FNV-1a hash of the string. Small, fast and
 * the same on every run, so a chance rule's seed fails the same calls of the same request again.
 */
export function seededRandom(seed: string) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) hash = Math.imul(hash ^ seed.charCodeAt(i), 0x01000193);
  let state = hash >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
  return { d1, parts, chance: chanceRule(rules) };
}

const STATEMENT = /^\s*(select|insert|update|delete|with|replace)\b/i;

/** Whether this SQL is the local mailbox's insert (mail, outside production). */
const isMailInsert = (sql: string) => matchingRule(sql, [{ statement: "insert", table: "dev_mail" }]) !== undefined;

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
  if (!header || !testSwitchOn(c.env)) return next();
  const { d1: rules, parts, chance } = parseRules(header);
  if (rules.length === 0 && parts.size === 0 && !chance) return next();
  const requestId = c.get("requestId");
  const ruleLog = chance ? { rule: `chance:${chance.percent}:${chance.seed}` } : {};
  const failD1 = (sql: string, fault: string) => {
    log("warn", "fault injected", { requestId, fault, ...ruleLog, sql: sql.slice(0, 200) });
    return Promise.reject(new Error(`D1_ERROR: injected fault (${fault})`));
  };
  const failPart = (fault: Part, detail: string) => {
    log("warn", "fault injected", { requestId, fault, ...ruleLog, detail: detail.slice(0, 200) });
    return Promise.reject(new Error(`injected fault (${fault})`));
  };
  // A chance rule draws once per call, in the order the request makes them.
  const draw = chance ? seededRandom(chance.seed) : null;
  const drawn = () => draw !== null && draw() * 100 < chance!.percent;
  /** Whether this call of a part fails: named by a rule, or drawn by the chance rule. */
  const fails = (part: Part) => parts.has(part) || (CHANCE_PARTS.has(part) && drawn());
  /** The failure of this D1 call (a statement, or a batch's statements), if it fails. */
  const d1Fault: D1Watch = (sqls) => {
    for (const sql of sqls) {
      const rule = matchingRule(sql, rules);
      if (rule)
        return failD1(sql, isMailInsert(sql) && parts.has("mail") ? "mail" : `d1:${rule.statement}:${rule.table}`);
    }
    if (!drawn()) return null;
    const sql = sqls[0] ?? "";
    return failD1(sql, sqls.length === 1 && isMailInsert(sql) ? "mail" : "d1");
  };
  const env = { ...c.env };
  if (rules.length || chance) env.DB = watchD1(c.env.DB, d1Fault);
  if (chance || ["r2:put", "r2:multipart", "r2:delete"].some((part) => parts.has(part as Part))) {
    env.MEDIA = faultyBucket(c.env.MEDIA, fails, failPart);
  }
  if (parts.has("do:notify")) env.PERSON_HUB = faultyNamespace(c.env.PERSON_HUB, failPart);
  else if (chance) env.PERSON_HUB = chancyNamespace(c.env.PERSON_HUB, fails, failPart);
  c.env = env;
  const outside = (["mail", "stripe", "purge", "sign"] as const).filter((part) => parts.has(part));
  if (outside.length === 0 && !chance) return next();
  installFaultyGlobals();
  const stripeBase = c.env.STRIPE_API_BASE || "https://api.stripe.com";
  return outsideFaults.run({ parts: new Set(outside), fails, stripeBase, fail: failPart }, next);
};

/** How this request's outside calls (and signing) fail (the wrappers below read it). */
type OutsideFaults = {
  /** The outside parts the rules name (every call of them fails). */
  parts: Set<Part>;
  /** Whether this call of a part fails: named, or drawn by the chance rule. */
  fails: (part: Part) => boolean;
  stripeBase: string;
  fail: (fault: Part, detail: string) => Promise<never>;
};
const outsideFaults = new AsyncLocalStorage<OutsideFaults>();

/** Which outside part a URL is (mail, purge or Stripe), if any. */
function outsidePart(url: URL, stripeBase: string): Part | null {
  if (url.hostname === "api.resend.com") return "mail";
  if (url.pathname.endsWith("/purge_cache")) return "purge";
  if (`${url.origin}${url.pathname}`.startsWith(stripeBase)) return "stripe";
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
      const part = outsidePart(url, faults.stripeBase);
      if (part && faults.fails(part)) return faults.fail(part, url.href);
    }
    return original(input, init);
  }) as typeof fetch;
}

type FailPart = (fault: Part, detail: string) => Promise<never>;

/** Properties of a Durable Object stub that are not calls of the object. */
const STUB_PROPERTIES = new Set(["id", "name", "then"]);

/** The person hubs' namespace, whose stubs' calls each fail when drawn (the chance rule). */
function chancyNamespace<T extends object>(namespace: T, fails: (part: Part) => boolean, fail: FailPart): T {
  const chancyStub = (stub: object, detail: string) =>
    new Proxy(stub, {
      get(target, property) {
        const value = Reflect.get(target, property);
        if (typeof property === "symbol" || STUB_PROPERTIES.has(property) || typeof value !== "function") return value;
        return (...args: unknown[]) =>
          fails("do:notify")
            ? fail("do:notify", `${detail} ${property}`)
            : // Reflect's: a stub's `apply` would be a call of the object's own method of that name.
              Reflect.apply(value as (...args: unknown[]) => unknown, target, args);
      },
    });
  return new Proxy(namespace, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property === "get" || property === "getByName") {
        return (id: unknown, ...rest: unknown[]) =>
          chancyStub((value as (...args: unknown[]) => object).apply(target, [id, ...rest]), String(id));
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** The bucket, with the calls that fail (named by a rule, or drawn) failing: nothing stored or deleted. */
function faultyBucket(bucket: R2Bucket, fails: (part: Part) => boolean, fail: FailPart): R2Bucket {
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
      if (part) {
        // Decided at each call, not when the method is read.
        return (...args: unknown[]) => {
          const key = args[0];
          if (!fails(part)) return Reflect.apply(value as (...args: unknown[]) => unknown, target, args);
          // resumeMultipartUpload answers an object synchronously: its calls fail instead.
          if (property === "resumeMultipartUpload") return failingStub(fail, part, String(key));
          return fail(part, String(Array.isArray(key) ? key.join(" ") : key));
        };
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

/** The person hubs' namespace, whose stubs all fail. */
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
