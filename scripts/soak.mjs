// `npm run soak`: the load and soak test of issue 9 (not part of `npm test`). Builds the production
// bundle, serves it under `wrangler dev` on loopback with fresh state, and lets at least 50
// simulated users loose on it for a bounded time: they sign up and confirm, sign in, ask to join
// organisations and are approved by organisation admins, give, accept and decline achievements
// (some with a picture), send feedback and read public passports, with random retries and
// deliberate double submissions. Every request is a browser-like form post (Origin, Host, cookies
// kept per user, redirects not followed). Each user keeps a ledger of what it saw succeed; at the
// end the database and the R2 bucket are checked against the ledgers: no lost write, no
// duplicate, no orphaned R2 object, no 5xx. Writes bench/soak.md; exits non-zero on a violation.
//
// `npm run soak -- --faults [--seed S]`, the chaos soak (issue 34, decision 078): the same run with
// the server at ENVIRONMENT "test" and every request asking the one fault switch
// (workers/testing/faults.ts) to fail 5 % of its D1, R2, person hub, mail and
// Stripe calls, drawn from a per-request seed derived from the run's seed (S, default 34): each
// simulated user's choices and each of its requests' draws follow from S, so a run can be
// replayed (the interleaving of users is timing's). The ledger holds as before, and more: a write
// a user saw refused left nothing, and every 5xx (seen by a client or logged by the app) has an
// injected fault logged under its request id. Writes bench/soak-faults.md.
//
// Environment: SOAK_PORT (8798), SOAK_SECONDS (60), SOAK_USERS (60, at least 50),
// SOAK_SKIP_BUILD=1 to reuse build/ while iterating on the soak itself, SOAK_RESULTS (bench/soak.md,
// or bench/soak-faults.md with --faults), SOAK_FAULT_PERCENT (5), SOAK_SEED (34, or --seed).
import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { stripVTControlCharacters } from "node:util";
import { percentile } from "./bench/load.mjs";
import { machine } from "./bench/report.mjs";
import { listObjects, openState } from "./backup/local-state.mjs";
import { build, freshState, startServer } from "./bench/server.mjs";
import { FAULT_HEADER, chanceFault } from "./soak/faults.mjs";

const args = process.argv.slice(2);
const argument = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const config = {
  port: Number(process.env.SOAK_PORT ?? 8798),
  durationMs: Number(process.env.SOAK_SECONDS ?? 60) * 1000,
  users: Math.max(50, Number(process.env.SOAK_USERS ?? 60)),
  skipBuild: process.env.SOAK_SKIP_BUILD === "1",
  // The chaos soak: a seeded share of the calls fails (null: none, the plain soak).
  faults: args.includes("--faults") ? { percent: Number(process.env.SOAK_FAULT_PERCENT ?? 5) } : null,
  seed: argument("--seed") ?? process.env.SOAK_SEED ?? "34",
};
const PERSIST_TO = ".wrangler/soak";
const LOG_FILE = config.faults ? ".wrangler/soak-faults.log" : ".wrangler/soak.log";
// The restore drill (scripts/restore-drill.mjs) runs a short soak and keeps its report elsewhere.
const RESULTS_FILE = process.env.SOAK_RESULTS ?? (config.faults ? "bench/soak-faults.md" : "bench/soak.md");
// Not "soak-…": a password that contains a word of the address is refused as guessable (decision 056).
const PASSWORD = "lantern-quartz-71";
const RUN = Math.random().toString(36).slice(2, 8);
// The smallest valid PNG (1×1, transparent): the picture some achievements carry.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

/**
 * A user's draws: under --faults, a stream of its own from the run's seed (sha256 of seed, user,
 * draw number), so its choices are the same in a replay whatever the others do; else Math.random.
 */
const userDraws = new AsyncLocalStorage();
const random = () => userDraws.getStore()?.() ?? Math.random();
function seededDraws(seed) {
  let n = 0;
  return () => createHash("sha256").update(`${seed}:${n++}`).digest().readUInt32BE(0) / 2 ** 32;
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const chance = (p) => random() < p;
const pick = (items) => items[Math.floor(random() * items.length)];
const today = () => new Date().toISOString().slice(0, 10);
const log = (message) => console.log(`[soak] ${message}`);

// ---- What every client saw: statuses, latencies and the ledger of acknowledged writes ----

const stats = {
  requests: 0,
  byStatus: new Map(),
  latencies: [],
  networkErrors: 0,
  proxyDrops: 0,
  serverErrors: [], // { line, requestId }
  clientErrors: new Map(),
};
// wrangler dev's own proxy answers this when its connection to the Worker drops (a keep-alive
// race under load, cloudflare/workers-sdk#14641), not the app. It is retried like a network
// error and counted apart; the app's own 5xx are read from its log.
const PROXY_DROP = "Your worker restarted mid-request";
const KINDS = ["signups", "joinRequests", "approvals", "achievements", "answers", "feedback"];
const writeSets = () => Object.fromEntries(KINDS.map((kind) => [kind, new Set()]));
const ledger = {
  signups: new Map(), // email -> { kind }
  joinRequests: [], // { email, organizationId }
  approvals: [], // { adminEmail, membershipId }
  achievements: new Map(), // title -> { adminEmail, recipientId, withImage }
  answers: new Map(), // achievementId -> "accepted" | "rejected"
  feedback: new Map(), // message -> email
  // Writes a user saw refused (a message, a 4xx, a 5xx on every try), which must have left nothing
  // unless a later try was acknowledged; and those with no answer at all, which may have happened.
  refused: writeSets(),
  unanswered: writeSets(),
};
const world = { organizations: [], passports: [] };

/** A simulated browser: its own IP (the app's client identity), cookie jar and ledger entries. */
class Client {
  constructor(origin, index, kind) {
    this.origin = origin;
    this.kind = kind;
    this.index = index;
    this.email = `soak-${RUN}-${index}@example.com`;
    this.name = `Soak ${kind === "admin" ? "Admin" : "Person"} ${index}`;
    this.ip = `10.${Math.floor(index / 250)}.${index % 250}.${1 + Math.floor(random() * 250)}`;
    this.cookies = new Map();
    this.userId = null;
    this.sent = 0; // requests sent, each with its own fault seed under --faults
    this.requestIds = []; // every answer's X-Request-Id, to tell whether faults stopped this user
  }

  async request(path, { method = "GET", form, multipart } = {}) {
    const url = this.origin + path;
    const headers = {
      "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) soak",
      Accept: "text/html,application/xhtml+xml",
      "cf-connecting-ip": this.ip,
      Host: new URL(this.origin).host,
    };
    if (this.cookies.size) headers.Cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    // The dev mailbox stands in for the person's mail provider, not the app: it is read unfaulted.
    if (config.faults && !path.startsWith("/dev/mail"))
      headers[FAULT_HEADER] = chanceFault(config.faults.percent, `${config.seed}.${this.index}.${this.sent}`);
    this.sent++;
    let body;
    if (method === "POST") {
      headers.Origin = this.origin;
      headers["Sec-Fetch-Site"] = "same-origin";
      if (multipart) {
        body = new FormData();
        for (const [name, value] of Object.entries(form)) body.append(name, value);
        body.append("media", new Blob([PNG], { type: "image/png" }), "badge.png");
      } else {
        body = new URLSearchParams(form);
      }
    }
    const started = performance.now();
    let response;
    try {
      response = await fetch(url, { method, headers, body, redirect: "manual", signal: AbortSignal.timeout(30_000) });
    } catch (error) {
      stats.networkErrors++;
      throw error;
    }
    const text = await response.text();
    const requestId = response.headers.get("X-Request-Id");
    if (requestId) this.requestIds.push(requestId);
    if (response.status === 503 && text.startsWith(PROXY_DROP)) {
      stats.proxyDrops++;
      throw new Error(`${method} ${path}: dropped by the wrangler dev proxy`);
    }
    stats.latencies.push(performance.now() - started);
    stats.requests++;
    stats.byStatus.set(response.status, (stats.byStatus.get(response.status) ?? 0) + 1);
    if (response.status >= 400 && response.status < 500) {
      // A plain error body says what it is; a page's message sits in its turbo-stream data.
      const message = text.startsWith("<") ? "" : text.slice(0, 80);
      const key =
        `${method} ${path.split("?")[0].replace(/[0-9a-f-]{36}/g, "{id}")} → ${response.status} ${message}`.trim();
      stats.clientErrors.set(key, (stats.clientErrors.get(key) ?? 0) + 1);
    }
    if (response.status >= 500)
      stats.serverErrors.push({ line: `${method} ${path} → ${response.status}: ${text.slice(0, 200)}`, requestId });
    let toast = null;
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === "";
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
      if (name === "passport_toast" && value) toast = readToast(value);
    }
    // The toast is shown once: a browser's next page clears it. Forget it here likewise.
    this.cookies.delete("passport_toast");
    return { status: response.status, location: response.headers.get("Location"), text, toast };
  }

  /**
   * One form post, sent again (the same body, as a reload would) after a network error or a 5xx.
   * Null when no try got an answer below 500. `outcome.unknown` is set when a try got no answer (a
   * timeout, a dropped connection: the write may have happened; a 5xx is an answer: it did not).
   */
  async post(path, form, { multipart = false, outcome = {} } = {}) {
    for (let attempt = 0; attempt < 4; attempt++) {
      try {
        const answer = await this.request(path, { method: "POST", form, multipart });
        outcome.answered = true;
        if (answer.status < 500) return answer;
      } catch {
        // Timed out or refused: a user would press the button again. The write may have happened.
        outcome.unknown = true;
      }
      await sleep(100 + random() * 400);
    }
    return null;
  }

  /** A page, loaded again after a network error or a 5xx (a person reloads); throws if it never comes. */
  async get(path) {
    for (let attempt = 0; attempt < 4; attempt++) {
      try {
        const answer = await this.request(path);
        if (answer.status < 500) return answer;
      } catch {
        // Timed out: reload.
      }
      await sleep(100 + random() * 400);
    }
    throw new Error(`GET ${path}: no answer below 500 in 4 tries`);
  }

  /**
   * Posts a form as a browser does, with retries on a network error or a 5xx (the same body, as
   * a reload would send it) and, when asked, a deliberate double submission: the same form sent
   * twice, either at once (a double click) or again after the first answer (back and resubmit).
   * Returns whether any of the answers acknowledged the write; `outcome.refused` is set when none
   * did and every try of every send was answered (so the user saw it fail, and it must not have happened).
   */
  async submit(path, form, { multipart = false, double = false, outcome = {} } = {}) {
    const sends = [];
    const once = () => {
      const send = {};
      sends.push(send);
      return this.post(path, form, { multipart, outcome: send });
    };
    let answers;
    if (!double) answers = [await once()];
    else if (chance(0.5)) answers = await Promise.all([once(), once()]);
    else answers = [await once(), await once()];
    const acked = answers.some(acknowledged);
    // What the user saw, for a violation's message: each send's last answer, in order.
    outcome.seen = answers.map((answer) =>
      answer ? `${answer.status}${answer.toast ? ` "${answer.toast.title}"` : ""}` : "no answer",
    );
    outcome.refused = !acked && sends.every((send) => send.answered && !send.unknown);
    return acked;
  }
}

/** A redirect (the app's answer to a form that worked) whose toast is not an error. */
function acknowledged(answer) {
  if (!answer || answer.status < 300 || answer.status >= 400) return false;
  return answer.toast === null || answer.toast.variant !== "destructive";
}

/** The flash toast in a signed cookie (`base64(json).signature`, URL-encoded), to tell success from refusal. */
function readToast(value) {
  try {
    const decoded = decodeURIComponent(value);
    const json = decodeURIComponent(escape(atob(decoded.slice(0, decoded.lastIndexOf(".")))));
    return JSON.parse(json);
  } catch {
    return null;
  }
}

/** The forms of a page: each one's hidden fields and the intents its buttons submit. */
function forms(html) {
  return html
    .split("<form")
    .slice(1)
    .map((chunk) => {
      const body = chunk.slice(0, chunk.indexOf("</form>"));
      return {
        action: /^[^>]*action="([^"]*)"/.exec(chunk)?.[1]?.replaceAll("&amp;", "&") ?? null,
        fields: Object.fromEntries(
          [...body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1], m[2]]),
        ),
        intents: [...body.matchAll(/name="intent" value="([^"]+)"/g)].map((m) => m[1]),
      };
    });
}
const formValues = (html, name) =>
  [...html.matchAll(new RegExp(`name="${name}" value="([^"]+)"`, "g"))].map((m) => m[1]);
// The idempotency key a form was rendered with, sent back as the browser would.
const submissionKey = (html) => formValues(html, "submissionKey")[0];

// ---- The simulated users ----

/**
 * A write the user did not see acknowledged: refused (every try answered; it must have left
 * nothing, unless a later try of the same write was acknowledged) or unknown (it may have happened).
 */
function noteFailure(kind, write, outcome) {
  (outcome.refused ? ledger.refused : ledger.unanswered)[kind].add(
    typeof write === "string" ? write : JSON.stringify(write),
  );
}

// Under --faults a person tries again what the platform failed, as one would: the sign-up (its
// "Error" toast), the sign-in, and the mail that never came ("Resend" on the Check your email
// screen, up to the limit of 3 confirmation mails an hour). The plain soak tries each once.
const TRIES = config.faults ? 6 : 1;

async function signUpAndSignIn(client) {
  const base = {
    intent: client.kind === "admin" ? "org-signup" : "signup",
    name: client.name,
    email: client.email,
    password: PASSWORD,
  };
  if (client.kind === "admin")
    Object.assign(base, {
      organizationName: `Soak Org ${RUN} ${client.index}`,
      organizationDescription: "A soak-test organisation.",
    });
  let signedUp = false;
  let refused = true;
  for (let attempt = 0; attempt < TRIES && !signedUp; attempt++) {
    if (attempt > 0) await sleep(500 + random() * 1000);
    await client.get(client.kind === "admin" ? "/auth?mode=organisation" : "/auth?mode=personal");
    const outcome = {};
    signedUp = await client.submit("/auth", base, { double: chance(0.2), outcome });
    refused &&= outcome.refused;
    client.signUps = [...(client.signUps ?? []), outcome.seen.join(" + ")];
    // A sign-up replaces the address's unconfirmed account (the newest is the only one), so when one
    // of a double submission was refused, it may have deleted the other's account before failing:
    // the person's last answer is that refusal. The plain soak never sees a refusal here.
    if (signedUp && config.faults && outcome.seen.length > 1) client.signUpMayBeReplaced = outcome.seen;
  }
  if (!signedUp) {
    if (refused) ledger.refused.signups.add(client.email);
    throw new Error(`${client.email}: sign-up refused`);
  }
  ledger.signups.set(client.email, { kind: client.kind });

  let token;
  for (let round = 0; round < (config.faults ? 3 : 1) && !token; round++) {
    if (round > 0) await client.post("/auth", { intent: "resend-verification", email: client.email });
    for (let i = 0; i < (config.faults ? 20 : 40) && !token; i++) {
      const mail = JSON.parse((await client.get(`/dev/mail.json?to=${encodeURIComponent(client.email)}`)).text);
      token = mail.map((item) => /\/auth\/confirm\?token=(\S+)/.exec(item.text)?.[1]).find(Boolean);
      if (!token) await sleep(250);
    }
  }
  if (!token) throw new Error(`${client.email}: no confirmation mail`);
  await client.get(`/auth/confirm?token=${token}`);
  // Confirming twice is harmless (the second answers 400: the link is used), so a retry is too.
  // Under --faults a person shown 'Verification failed' on every reload presses Confirm again.
  let confirmed = null;
  for (let attempt = 0; attempt < TRIES && !confirmed; attempt++) {
    if (attempt > 0) await sleep(500 + random() * 1000);
    confirmed = await client.post("/auth/confirm", { token });
  }
  if (confirmed?.status !== 200 && confirmed?.status !== 400)
    throw new Error(`${client.email}: confirmation answered ${confirmed?.status}`);
  client.cookies.clear();

  let signedIn = null;
  for (let attempt = 0; attempt < TRIES && !acknowledged(signedIn); attempt++) {
    if (attempt > 0) await sleep(500 + random() * 1000);
    await client.get("/auth");
    signedIn = await client.post("/auth", {
      intent: "signin",
      email: client.email,
      password: PASSWORD,
      redirectTo: "",
    });
  }
  if (!acknowledged(signedIn)) throw new Error(`${client.email}: sign-in answered ${signedIn?.status}`);
  // A page whose reads failed quietly ('Error loading profile') is loaded again, as a person would.
  for (let attempt = 0; attempt < TRIES && !client.userId; attempt++) {
    const passport = await client.get("/passport");
    client.userId = /\/passport\/([0-9a-f-]{36})/.exec(passport.text)?.[1] ?? null;
  }
  if (client.userId) world.passports.push(client.userId);
  if (client.kind === "admin") {
    let organizationId;
    for (let attempt = 0; attempt < TRIES && !organizationId; attempt++) {
      const dashboard = await client.get("/dashboard");
      organizationId = /\/join\/([0-9a-f-]{36})/.exec(dashboard.text)?.[1];
    }
    if (!organizationId) throw new Error(`${client.email}: no organisation after confirming`);
    world.organizations.push({ id: organizationId, name: base.organizationName });
  }
}

async function individualStep(client, joined) {
  // Ask to join an organisation found through the search, until a few are asked.
  if (joined.size < 3 && world.organizations.length > 0 && chance(0.5)) {
    const organization = pick(world.organizations);
    if (!joined.has(organization.id)) {
      const results = await client.get(`/dashboard?q=${encodeURIComponent(organization.name)}`);
      if (formValues(results.text, "organizationId").includes(organization.id)) {
        const redirectTo = `/dashboard?q=${encodeURIComponent(organization.name)}`;
        const outcome = {};
        const request = { email: client.email, organizationId: organization.id };
        if (
          await client.submit(
            "/dashboard",
            { intent: "request-join", organizationId: organization.id, redirectTo },
            { double: chance(0.2), outcome },
          )
        ) {
          joined.add(organization.id);
          ledger.joinRequests.push(request);
        } else noteFailure("joinRequests", request, outcome);
      }
      return;
    }
  }
  const roll = random();
  if (roll < 0.45) {
    // Answer the pending achievements: mostly accept, sometimes decline.
    const page = await client.get("/passport");
    const pending = forms(page.text).filter((form) => form.intents.includes("accept"));
    for (const {
      action,
      fields: { achievementId },
    } of pending) {
      if (ledger.answers.has(achievementId)) continue;
      const intent = chance(0.7) ? "accept" : "reject";
      // The form's own action: /passport?index (the index route's action).
      const outcome = {};
      const answered = await client.submit(
        action ?? "/passport?index",
        { intent, achievementId },
        { double: chance(0.2), outcome },
      );
      if (answered) ledger.answers.set(achievementId, intent === "accept" ? "accepted" : "rejected");
      else noteFailure("answers", achievementId, outcome);
    }
  } else if (roll < 0.65) {
    const page = await client.get("/settings");
    const message = `Soak feedback ${RUN} ${crypto.randomUUID()}`;
    const form = { intent: "send-feedback", message, rating: String(1 + Math.floor(random() * 5)) };
    const key = submissionKey(page.text);
    // A page that came without its form (a quiet failure under faults) has nothing to submit.
    if (!key) return;
    form.submissionKey = key;
    const outcome = {};
    if (await client.submit("/settings?index", form, { double: chance(0.25), outcome }))
      ledger.feedback.set(message, client.email);
    else noteFailure("feedback", message, outcome);
  } else if (world.passports.length > 0) {
    await client.get(`/passport/${pick(world.passports)}`);
  }
}

async function adminStep(client) {
  const dashboard = await client.get("/dashboard");
  // Each member's Give Achievement dialog opens at ?add=give-{userId}.
  const members = [...new Set([...dashboard.text.matchAll(/add=give-([0-9a-f-]{36})/g)].map((m) => m[1]))].filter(
    (id) => id !== client.userId,
  );
  // Recognise two members (or fewer), then approve up to four pending requests (their forms carry the approve intent).
  for (const recipientId of members.sort(() => random() - 0.5).slice(0, 2)) await give(client, recipientId);
  const pending = forms(dashboard.text)
    .filter((form) => form.intents.includes("approve"))
    .map((form) => form.fields.membershipId);
  for (const membershipId of pending.slice(0, 4)) {
    const outcome = {};
    if (await client.submit("/dashboard", { intent: "approve", membershipId }, { double: chance(0.2), outcome })) {
      ledger.approvals.push({ adminEmail: client.email, membershipId });
    } else noteFailure("approvals", membershipId, outcome);
  }
}

async function give(client, recipientId) {
  // The dialog's own address, as a browser without JavaScript opens it: the form with its key.
  const formPath = `/dashboard?add=${encodeURIComponent(`give-${recipientId}`)}`;
  const page = await client.get(formPath);
  const title = `Soak award ${RUN} ${crypto.randomUUID().slice(0, 13)}`;
  const form = {
    intent: "give-achievement",
    formId: `give-${recipientId}`,
    userId: recipientId,
    title,
    description: "For keeping the lights on.",
    date: today(),
    type: pick(["award", "training", "milestone"]),
  };
  const key = submissionKey(page.text);
  // A dashboard that came without the dialog (a quiet failure under faults) shows no form: a person
  // cannot submit it, and a post without its key is one no browser sends (nothing dedupes it).
  if (!key) return;
  form.submissionKey = key;
  const withImage = chance(0.3);
  const outcome = {};
  if (await client.submit(formPath, form, { multipart: withImage, double: chance(0.25), outcome })) {
    ledger.achievements.set(title, { adminEmail: client.email, recipientId, withImage });
  } else noteFailure("achievements", title, outcome);
}

async function simulate(client, deadline) {
  try {
    await signUpAndSignIn(client);
  } catch (error) {
    client.failed = String(error.message ?? error);
    return;
  }
  const joined = new Set();
  while (Date.now() < deadline) {
    try {
      if (client.kind === "admin") await adminStep(client);
      else await individualStep(client, joined);
    } catch (error) {
      client.errors = (client.errors ?? 0) + 1;
      if (client.errors <= 3) log(`${client.email}: ${error.message ?? error}`);
    }
    await sleep(100 + random() * 400);
  }
}

// ---- The checks against the ledgers ----

/** The app's structured log lines (wrangler prints them as "▲ [WARNING] {...}" / "✘ [ERROR] {...}", with colours). */
function readAppLog() {
  return readFileSync(LOG_FILE, "utf8")
    .split("\n")
    .flatMap((line) => {
      const plain = stripVTControlCharacters(line);
      const start = plain.indexOf('{"level"');
      try {
        return start < 0 ? [] : [JSON.parse(plain.slice(start))];
      } catch {
        return [];
      }
    });
}

async function check(clients, query) {
  const violations = [];
  const appLog = readAppLog();
  // The requests a fault was injected into (--faults), by the id the app gives each request.
  const injected = appLog.filter((entry) => entry.message === "fault injected");
  const faulted = new Set(injected.map((entry) => entry.requestId));
  const sqlList = (values) => values.map((value) => `'${String(value).replaceAll("'", "''")}'`).join(", ");
  const userRows = await query(`select id, email, email_verified from users where email like 'soak-${RUN}-%'`);
  const users = new Map(userRows.map((row) => [row.email, row.id]));
  const confirmed = new Set(userRows.filter((row) => row.email_verified).map((row) => row.email));
  const clientOf = new Map(clients.map((client) => [client.email, client]));
  const replaced = [];
  for (const email of ledger.signups.keys()) {
    if (users.has(email)) continue;
    const client = clientOf.get(email);
    const answered = (client.signUps ?? []).join("; ");
    // Replaced by its own double submission's other send, which then failed and said so.
    if (client.signUpMayBeReplaced?.some((answer) => answer !== '302 "Check your email"'))
      replaced.push(`${email}: ${answered}`);
    else violations.push(`lost sign-up: ${email} (its sign-ups answered: ${answered})`);
  }
  // Under --faults a user the platform kept failing may give up before starting (reported); one
  // none of whose requests had a fault injected could not start for another reason: a violation.
  const stopped = [];
  for (const client of clients) {
    if (!client.failed) continue;
    if (config.faults && client.requestIds.some((id) => faulted.has(id)))
      stopped.push(`${client.failed} (its sign-ups answered: ${(client.signUps ?? []).join("; ")})`);
    else violations.push(`${client.email} could not start: ${client.failed}`);
  }

  const memberships = await query(
    `select id, user_id, organization_id, status from organization_members where user_id in (${sqlList([...users.values()])})`,
  );
  const membershipKey = (userId, organizationId) => `${userId}:${organizationId}`;
  const membershipRows = new Map();
  for (const row of memberships) {
    const key = membershipKey(row.user_id, row.organization_id);
    if (membershipRows.has(key)) violations.push(`duplicate membership ${key}`);
    membershipRows.set(key, row);
  }
  for (const { email, organizationId } of ledger.joinRequests) {
    if (!membershipRows.has(membershipKey(users.get(email), organizationId)))
      violations.push(`lost join request: ${email} → ${organizationId}`);
  }
  const byId = new Map(memberships.map((row) => [row.id, row]));
  for (const { membershipId } of ledger.approvals) {
    if (byId.get(membershipId)?.status !== "approved") violations.push(`lost approval: membership ${membershipId}`);
  }

  const achievements = await query(
    `select id, title, user_id, status, image_url, video_url from achievements where title like 'Soak award ${RUN} %'`,
  );
  const byTitle = new Map();
  for (const row of achievements) byTitle.set(row.title, [...(byTitle.get(row.title) ?? []), row]);
  for (const [title, rows] of byTitle)
    if (rows.length > 1) violations.push(`duplicate achievement: "${title}" stored ${rows.length} times`);
  for (const [title, { recipientId, withImage }] of ledger.achievements) {
    const row = byTitle.get(title)?.[0];
    if (!row) violations.push(`lost achievement: "${title}"`);
    else if (row.user_id !== recipientId)
      violations.push(`achievement "${title}" went to ${row.user_id}, not ${recipientId}`);
    else if (withImage && !row.image_url) violations.push(`achievement "${title}" lost its picture`);
  }
  const achievementById = new Map(achievements.map((row) => [row.id, row]));
  for (const [id, status] of ledger.answers) {
    const row = achievementById.get(id);
    if (!row) violations.push(`answered achievement ${id} is gone`);
    else if (row.status !== status)
      violations.push(`lost answer: achievement ${id} is ${row.status}, answered ${status}`);
  }

  const feedback = await query(
    `select message, count(*) as n from beta_feedback where message like 'Soak feedback ${RUN} %' group by message`,
  );
  const feedbackCounts = new Map(feedback.map((row) => [row.message, row.n]));
  for (const [message, n] of feedbackCounts)
    if (n > 1) violations.push(`duplicate feedback: "${message}" stored ${n} times`);
  for (const message of ledger.feedback.keys())
    if (!feedbackCounts.has(message)) violations.push(`lost feedback: "${message}"`);

  // A write every try of which the user saw refused left nothing, unless another try of the same
  // write was acknowledged or went unanswered (it may have happened).
  const { refused, unanswered } = ledger;
  const settled = (kind, key, acked) => !acked && !unanswered[kind].has(key);
  // Except a sign-up's account: the auth library writes it before the product's rows, and a sign-up
  // refused after that leaves an unconfirmed account nobody can use, which the next sign-up for the
  // address replaces and the daily cron deletes (deleteUnconfirmedAccountsBefore). A confirmed one
  // would be a violation.
  const leftovers = [];
  for (const email of refused.signups) {
    if (confirmed.has(email)) violations.push(`a sign-up refused on every try left a confirmed account: ${email}`);
    else if (users.has(email)) leftovers.push(email);
  }
  const requested = new Set(ledger.joinRequests.map((request) => JSON.stringify(request)));
  for (const key of refused.joinRequests) {
    const { email, organizationId } = JSON.parse(key);
    if (
      settled("joinRequests", key, requested.has(key)) &&
      membershipRows.has(membershipKey(users.get(email), organizationId))
    )
      violations.push(`a refused join request was stored: ${email} → ${organizationId}`);
  }
  const approved = new Set(ledger.approvals.map((approval) => approval.membershipId));
  for (const id of refused.approvals) {
    if (settled("approvals", id, approved.has(id)) && byId.get(id)?.status === "approved")
      violations.push(`a refused approval was stored: membership ${id}`);
  }
  for (const title of refused.achievements) {
    if (byTitle.has(title)) violations.push(`a refused achievement was stored: "${title}"`);
  }
  for (const id of refused.answers) {
    const status = achievementById.get(id)?.status;
    if (settled("answers", id, ledger.answers.has(id)) && status !== undefined && status !== "pending")
      violations.push(`a refused answer was stored: achievement ${id} is ${status}`);
  }
  for (const message of refused.feedback) {
    if (feedbackCounts.has(message)) violations.push(`refused feedback was stored: "${message}"`);
  }

  // Every request the app failed (5xx), as a client saw it and from the app's own structured log:
  // there must be none, or under --faults none without an injected fault under its request id.
  const appErrors = appLog.filter((entry) => entry.message === "request failed");
  const unmatched = (requestId) => !config.faults || !faulted.has(requestId);
  const seen = stats.serverErrors.filter((error) => unmatched(error.requestId));
  for (const error of seen.slice(0, 20))
    violations.push(
      `5xx${config.faults ? " without an injected fault" : ""}: ${error.line} (request ${error.requestId})`,
    );
  if (seen.length > 20) violations.push(`… and ${seen.length - 20} more 5xx`);
  const logged = appErrors.filter((entry) => unmatched(entry.requestId));
  for (const entry of logged.slice(0, 20))
    violations.push(
      `5xx in the app's log${config.faults ? " without an injected fault" : ""}: ${entry.method} ${entry.path} → ${entry.status} (request ${entry.requestId})`,
    );
  if (logged.length > 20) violations.push(`… and ${logged.length - 20} more in the app's log`);
  const byPart = new Map();
  for (const entry of injected) byPart.set(entry.fault, (byPart.get(entry.fault) ?? 0) + 1);
  return {
    faults: {
      injected: injected.length,
      requests: faulted.size,
      byPart: [...byPart].sort(([a], [b]) => a.localeCompare(b)),
      serverErrors: stats.serverErrors.length,
      appErrors: appErrors.length,
      refused: Object.fromEntries(KINDS.map((kind) => [kind, refused[kind].size])),
      unanswered: Object.fromEntries(KINDS.map((kind) => [kind, unanswered[kind].size])),
      stopped,
      leftovers,
      replaced,
    },
    violations,
    counts: {
      users: users.size,
      joinRequests: ledger.joinRequests.length,
      approvals: ledger.approvals.length,
      achievements: ledger.achievements.size,
      achievementsWithImage: [...ledger.achievements.values()].filter((a) => a.withImage).length,
      answers: ledger.answers.size,
      feedback: ledger.feedback.size,
    },
  };
}

/** R2 objects that no row refers to: an upload whose write failed or was a duplicate must leave nothing behind. */
async function orphans(keys, query) {
  const urls = await query(
    `select image_url as url from achievements where image_url like '/media/%'
     union all select video_url from achievements where video_url like '/media/%'
     union all select avatar_url from profiles where avatar_url like '/media/%'
     union all select intro_video_url from profiles where intro_video_url like '/media/%'
     union all select intro_video_thumbnail_url from profiles where intro_video_thumbnail_url like '/media/%'`,
  );
  const referenced = new Set(urls.map((row) => decodeURIComponent(row.url.slice("/media/".length).split("?")[0])));
  return keys.filter((key) => !referenced.has(key));
}

// ---- The run ----

function report(results) {
  const statuses = [...stats.byStatus].sort(([a], [b]) => a - b);
  const faults = config.faults && results.faults;
  const lines = [
    faults ? "# Chaos soak: the load and soak test with injected faults" : "# Load and soak test",
    "",
    faults
      ? 'Written by `npm run soak -- --faults` (scripts/soak.mjs). See docs/operations.md, "The chaos soak".'
      : 'Written by `npm run soak` (scripts/soak.mjs). See docs/security.md, "Load and soak test".',
    "",
    `- Date: ${results.date}`,
    `- Machine: ${results.machine.os}; ${results.machine.cpus}; ${results.machine.memory}; Node ${results.machine.node}`,
    `- Server: production build under \`wrangler dev\` on ${results.origin}, fresh local state`,
    `- Simulated users: ${config.users} concurrent (${results.admins} organisation admins, ${config.users - results.admins} individuals) for ${config.durationMs / 1000} s`,
    ...(faults
      ? [
          `- Faults: ${config.faults.percent} % of every request's D1, R2 (put, multipart, delete), person hub, mail and Stripe calls fail, drawn per request from \`${FAULT_HEADER}: ${chanceFault(config.faults.percent, `${config.seed}.{user}.{request}`)}\` (ENVIRONMENT "test")`,
          `- Seed: **${config.seed}** (replay: \`npm run soak -- --faults --seed ${config.seed}\`; each user's choices and each of its requests' draws are the same, the users' interleaving is timing's)`,
        ]
      : []),
    "",
    "## Traffic",
    "",
    "| Measure | Value |",
    "| --- | --- |",
    `| Requests served | ${stats.requests} |`,
    `| Throughput | ${(stats.requests / results.seconds).toFixed(1)} requests/s |`,
    `| Latency p50 | ${results.p50.toFixed(0)} ms |`,
    `| Latency p95 | ${results.p95.toFixed(0)} ms |`,
    `| Latency p99 | ${results.p99.toFixed(0)} ms |`,
    `| Network errors (retried) | ${stats.networkErrors} |`,
    `| Dropped by the wrangler dev proxy (503, retried) | ${stats.proxyDrops} |`,
    "",
    "| Status | Responses |",
    "| --- | --- |",
    ...statuses.map(([status, n]) => `| ${status} | ${n} |`),
    "",
    ...(stats.clientErrors.size
      ? [
          "4xx answers, by request and message:",
          "",
          ...[...stats.clientErrors].map(([key, n]) => `- ${n} × ${key}`),
          "",
        ]
      : []),
    "## Acknowledged writes checked against D1 and R2",
    "",
    "| Ledger | Acknowledged |",
    "| --- | --- |",
    ...Object.entries(results.counts).map(([name, n]) => `| ${name} | ${n} |`),
    `| R2 objects | ${results.objects} (orphaned: ${results.orphans.length}) |`,
    "",
    ...(faults ? faultSections(faults) : []),
    "## Verdict",
    "",
    results.violations.length > 0
      ? `FAIL: ${results.violations.length} violation(s):`
      : faults
        ? "PASS: no lost write, no duplicate, no orphaned R2 object, no refused write stored, every 5xx matched by an injected fault."
        : "PASS: no lost write, no duplicate, no orphaned R2 object, no 5xx.",
    ...results.violations.slice(0, 50).map((v) => `- ${v}`),
    "",
  ];
  return lines.join("\n");
}

/** The chaos soak's sections: the faults injected, the 5xx they explain, the refused writes checked. */
function faultSections(faults) {
  const kinds = KINDS.map((kind) => `| ${kind} | ${faults.refused[kind]} | ${faults.unanswered[kind]} |`);
  return [
    "## Injected faults",
    "",
    `${faults.injected} calls failed by injection, in ${faults.requests} requests; each logged as \`fault injected\` with its request id.`,
    "",
    "| Part | Calls failed |",
    "| --- | --- |",
    ...faults.byPart.map(([part, n]) => `| ${part} | ${n} |`),
    "",
    `5xx answers: ${faults.serverErrors} seen by clients, ${faults.appErrors} in the app's log (\`request failed\`); each must have a fault logged under its request id (the verdict lists any that has not).`,
    "",
    "Writes the user saw refused on every try (the person was told; they must have left nothing), and writes with a try that got no answer (not checked: they may have happened):",
    "",
    "| Ledger | Refused | Unanswered |",
    "| --- | --- | --- |",
    ...kinds,
    "",
    `Sign-ups refused on every try that left an unconfirmed account (replaced by the next sign-up for the address, deleted by the daily cron): ${faults.leftovers.length}`,
    "",
    `Acknowledged sign-ups replaced by the same double submission's other send, which then failed and said so (the newest sign-up of an unconfirmed address replaces it; the person's last answer is that refusal): ${faults.replaced.length}`,
    ...faults.replaced.map((line) => `- ${line}`),
    "",
    `Users stopped by injected faults before they could start (not a violation: each had a fault in its own requests): ${faults.stopped.length}`,
    ...faults.stopped.map((line) => `- ${line}`),
    "",
  ];
}

async function main() {
  if (!config.skipBuild) build();
  freshState(PERSIST_TO);
  // Only a Worker at ENVIRONMENT "test" honours the fault header (the one switch).
  const environment = config.faults ? "test" : "development";
  const server = await startServer(config.port, { persistTo: PERSIST_TO, logFile: LOG_FILE, environment });
  const admins = Math.max(5, Math.round(config.users / 7));
  const clients = Array.from(
    { length: config.users },
    (_, i) => new Client(server.origin, i, i < admins ? "admin" : "individual"),
  );
  const started = Date.now();
  let results;
  try {
    log(`${config.users} users (${admins} admins) for ${config.durationMs / 1000} s on ${server.origin}`);
    const deadline = started + config.durationMs;
    if (config.faults) log(`faults: ${chanceFault(config.faults.percent, `${config.seed}.{user}.{request}`)}`);
    const progress = setInterval(() => log(`${stats.requests} requests, ${stats.serverErrors.length} 5xx`), 10_000);
    // Arrivals spread over the first two seconds, as real users do not all click at once.
    await Promise.all(
      clients.map(async (client, i) => {
        await sleep((i / clients.length) * 2000);
        const draws = config.faults ? seededDraws(`${config.seed}:${client.index}`) : null;
        await (draws ? userDraws.run(draws, () => simulate(client, deadline)) : simulate(client, deadline));
      }),
    );
    clearInterval(progress);
  } finally {
    server.stop();
  }
  const seconds = (Date.now() - started) / 1000;
  await sleep(1000); // let workerd let go of the state files
  // The state as the stopped server left it, read through one Miniflare over its files.
  const state = await openState(PERSIST_TO);
  const query = async (sql) => (await state.db.prepare(sql).all()).results;
  let checked, keys, orphaned;
  try {
    checked = await check(clients, query);
    keys = (await listObjects(state.bucket)).map((object) => object.key);
    orphaned = await orphans(keys, query);
  } finally {
    await state.dispose();
  }
  const { violations, counts, faults } = checked;
  for (const key of orphaned) violations.push(`orphaned R2 object: ${key}`);
  // A run that never got as far as some kind of write proved nothing about it: that is a failure
  // too (a machine too busy for the load; raise SOAK_SECONDS), not a pass.
  for (const [name, n] of Object.entries(counts)) {
    if (n === 0 && name !== "achievementsWithImage")
      violations.push(`inconclusive: no acknowledged ${name} in ${config.durationMs / 1000} s`);
  }
  if (counts.achievementsWithImage === 0)
    violations.push("inconclusive: no achievement with a picture was acknowledged");
  const sorted = [...stats.latencies].sort((a, b) => a - b);
  results = {
    date: new Date().toISOString(),
    machine: machine(),
    origin: server.origin,
    admins,
    seconds,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    counts,
    faults,
    objects: keys.length,
    orphans: orphaned,
    violations,
  };
  const markdown = report(results);
  mkdirSync("bench", { recursive: true });
  writeFileSync(RESULTS_FILE, markdown);
  console.log(`\n${markdown}\nWritten to ${RESULTS_FILE}.`);
  return violations.length === 0;
}

main().then(
  (passed) => process.exit(passed ? 0 : 1),
  (error) => {
    console.error(error);
    process.exit(2);
  },
);
