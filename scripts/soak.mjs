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
// Environment: SOAK_PORT (8798), SOAK_SECONDS (60), SOAK_USERS (60, at least 50),
// SOAK_SKIP_BUILD=1 to reuse build/ while iterating on the soak itself, SOAK_RESULTS (bench/soak.md).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { Miniflare } from "miniflare";
import { percentile } from "./bench/load.mjs";
import { machine } from "./bench/report.mjs";
import { build, freshState, queryD1, startServer } from "./bench/server.mjs";

const config = {
  port: Number(process.env.SOAK_PORT ?? 8798),
  durationMs: Number(process.env.SOAK_SECONDS ?? 60) * 1000,
  users: Math.max(50, Number(process.env.SOAK_USERS ?? 60)),
  skipBuild: process.env.SOAK_SKIP_BUILD === "1",
};
const PERSIST_TO = ".wrangler/soak";
const LOG_FILE = ".wrangler/soak.log";
// The restore drill (scripts/restore-drill.mjs) runs a short soak and keeps its report elsewhere.
const RESULTS_FILE = process.env.SOAK_RESULTS ?? "bench/soak.md";
const BUCKET_NAME = "career-passport-media"; // wrangler.toml's r2 bucket
// Not "soak-…": a password that contains a word of the address is refused as guessable (decision 056).
const PASSWORD = "lantern-quartz-71";
const RUN = Math.random().toString(36).slice(2, 8);
// The smallest valid PNG (1×1, transparent): the picture some achievements carry.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const chance = (p) => Math.random() < p;
const pick = (items) => items[Math.floor(Math.random() * items.length)];
const today = () => new Date().toISOString().slice(0, 10);
const log = (message) => console.log(`[soak] ${message}`);

// ---- What every client saw: statuses, latencies and the ledger of acknowledged writes ----

const stats = {
  requests: 0,
  byStatus: new Map(),
  latencies: [],
  networkErrors: 0,
  proxyDrops: 0,
  serverErrors: [],
  clientErrors: new Map(),
};
// wrangler dev's own proxy answers this when its connection to the Worker drops (a keep-alive
// race under load, cloudflare/workers-sdk#14641), not the app. It is retried like a network
// error and counted apart; the app's own 5xx are read from its log.
const PROXY_DROP = "Your worker restarted mid-request";
const ledger = {
  signups: new Map(), // email -> { kind }
  joinRequests: [], // { email, organizationId }
  approvals: [], // { adminEmail, membershipId }
  achievements: new Map(), // title -> { adminEmail, recipientId, withImage }
  answers: new Map(), // achievementId -> "accepted" | "rejected"
  feedback: new Map(), // message -> email
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
    this.ip = `10.${Math.floor(index / 250)}.${index % 250}.${1 + Math.floor(Math.random() * 250)}`;
    this.cookies = new Map();
    this.userId = null;
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
      stats.serverErrors.push(`${method} ${path} → ${response.status}: ${text.slice(0, 200)}`);
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

  /** One form post, sent again (the same body, as a reload would) after a network error or a 5xx. */
  async post(path, form, { multipart = false } = {}) {
    for (let attempt = 0; attempt < 4; attempt++) {
      try {
        const answer = await this.request(path, { method: "POST", form, multipart });
        if (answer.status < 500) return answer;
      } catch {
        // Timed out or refused: a user would press the button again.
      }
      await sleep(100 + Math.random() * 400);
    }
    return null;
  }

  /**
   * Posts a form as a browser does, with retries on a network error or a 5xx (the same body, as
   * a reload would send it) and, when asked, a deliberate double submission: the same form sent
   * twice, either at once (a double click) or again after the first answer (back and resubmit).
   * Returns whether any of the answers acknowledged the write.
   */
  async submit(path, form, { multipart = false, double = false } = {}) {
    const once = () => this.post(path, form, { multipart });
    let answers;
    if (!double) answers = [await once()];
    else if (chance(0.5)) answers = await Promise.all([once(), once()]);
    else answers = [await once(), await once()];
    return answers.some(acknowledged);
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
  await client.request(client.kind === "admin" ? "/auth?mode=organisation" : "/auth?mode=personal");
  if (!(await client.submit("/auth", base, { double: chance(0.2) })))
    throw new Error(`${client.email}: sign-up refused`);
  ledger.signups.set(client.email, { kind: client.kind });

  let token;
  for (let i = 0; i < 40 && !token; i++) {
    const mail = JSON.parse((await client.request(`/dev/mail.json?to=${encodeURIComponent(client.email)}`)).text);
    token = mail.map((item) => /\/auth\/confirm\?token=(\S+)/.exec(item.text)?.[1]).find(Boolean);
    if (!token) await sleep(250);
  }
  if (!token) throw new Error(`${client.email}: no confirmation mail`);
  await client.request(`/auth/confirm?token=${token}`);
  // Confirming twice is harmless (the second answers 400: the link is used), so a retry is too.
  const confirmed = await client.post("/auth/confirm", { token });
  if (confirmed?.status !== 200 && confirmed?.status !== 400)
    throw new Error(`${client.email}: confirmation answered ${confirmed?.status}`);
  client.cookies.clear();

  await client.request("/auth");
  const signedIn = await client.post("/auth", {
    intent: "signin",
    email: client.email,
    password: PASSWORD,
    redirectTo: "",
  });
  if (signedIn?.status !== 302) throw new Error(`${client.email}: sign-in answered ${signedIn?.status}`);
  const passport = await client.request("/passport");
  client.userId = /\/passport\/([0-9a-f-]{36})/.exec(passport.text)?.[1] ?? null;
  if (client.userId) world.passports.push(client.userId);
  if (client.kind === "admin") {
    const dashboard = await client.request("/dashboard");
    const organizationId = /\/join\/([0-9a-f-]{36})/.exec(dashboard.text)?.[1];
    if (!organizationId) throw new Error(`${client.email}: no organisation after confirming`);
    world.organizations.push({ id: organizationId, name: base.organizationName });
  }
}

async function individualStep(client, joined) {
  // Ask to join an organisation found through the search, until a few are asked.
  if (joined.size < 3 && world.organizations.length > 0 && chance(0.5)) {
    const organization = pick(world.organizations);
    if (!joined.has(organization.id)) {
      const results = await client.request(`/dashboard?q=${encodeURIComponent(organization.name)}`);
      if (formValues(results.text, "organizationId").includes(organization.id)) {
        const redirectTo = `/dashboard?q=${encodeURIComponent(organization.name)}`;
        if (
          await client.submit(
            "/dashboard",
            { intent: "request-join", organizationId: organization.id, redirectTo },
            { double: chance(0.2) },
          )
        ) {
          joined.add(organization.id);
          ledger.joinRequests.push({ email: client.email, organizationId: organization.id });
        }
      }
      return;
    }
  }
  const roll = Math.random();
  if (roll < 0.45) {
    // Answer the pending achievements: mostly accept, sometimes decline.
    const page = await client.request("/passport");
    const pending = forms(page.text).filter((form) => form.intents.includes("accept"));
    for (const {
      action,
      fields: { achievementId },
    } of pending) {
      if (ledger.answers.has(achievementId)) continue;
      const intent = chance(0.7) ? "accept" : "reject";
      // The form's own action: /passport?index (the index route's action).
      if (await client.submit(action ?? "/passport?index", { intent, achievementId }, { double: chance(0.2) })) {
        ledger.answers.set(achievementId, intent === "accept" ? "accepted" : "rejected");
      }
    }
  } else if (roll < 0.65) {
    const page = await client.request("/settings");
    const message = `Soak feedback ${RUN} ${crypto.randomUUID()}`;
    const form = { intent: "send-feedback", message, rating: String(1 + Math.floor(Math.random() * 5)) };
    const key = submissionKey(page.text);
    if (key) form.submissionKey = key;
    if (await client.submit("/settings", form, { double: chance(0.25) })) ledger.feedback.set(message, client.email);
  } else if (world.passports.length > 0) {
    await client.request(`/passport/${pick(world.passports)}`);
  }
}

async function adminStep(client) {
  const dashboard = await client.request("/dashboard");
  // Each member's Give Achievement dialog opens at ?add=give-{userId}.
  const members = [...new Set([...dashboard.text.matchAll(/add=give-([0-9a-f-]{36})/g)].map((m) => m[1]))].filter(
    (id) => id !== client.userId,
  );
  // Recognise two members (or fewer), then approve up to four pending requests (their forms carry the approve intent).
  for (const recipientId of members.sort(() => Math.random() - 0.5).slice(0, 2)) await give(client, recipientId);
  const pending = forms(dashboard.text)
    .filter((form) => form.intents.includes("approve"))
    .map((form) => form.fields.membershipId);
  for (const membershipId of pending.slice(0, 4)) {
    if (await client.submit("/dashboard", { intent: "approve", membershipId }, { double: chance(0.2) })) {
      ledger.approvals.push({ adminEmail: client.email, membershipId });
    }
  }
}

async function give(client, recipientId) {
  // The dialog's own address, as a browser without JavaScript opens it: the form with its key.
  const formPath = `/dashboard?add=${encodeURIComponent(`give-${recipientId}`)}`;
  const page = await client.request(formPath);
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
  if (key) form.submissionKey = key;
  const withImage = chance(0.3);
  if (await client.submit(formPath, form, { multipart: withImage, double: chance(0.25) })) {
    ledger.achievements.set(title, { adminEmail: client.email, recipientId, withImage });
  }
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
    await sleep(100 + Math.random() * 400);
  }
}

// ---- The checks against the ledgers ----

function check(clients) {
  const violations = [];
  const sqlList = (values) => values.map((value) => `'${String(value).replaceAll("'", "''")}'`).join(", ");
  const users = new Map(
    queryD1(`select id, email from users where email like 'soak-${RUN}-%'`, PERSIST_TO).map((row) => [
      row.email,
      row.id,
    ]),
  );
  for (const email of ledger.signups.keys()) if (!users.has(email)) violations.push(`lost sign-up: ${email}`);
  for (const client of clients) if (client.failed) violations.push(`${client.email} could not start: ${client.failed}`);

  const memberships = queryD1(
    `select id, user_id, organization_id, status from organization_members where user_id in (${sqlList([...users.values()])})`,
    PERSIST_TO,
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

  const achievements = queryD1(
    `select id, title, user_id, status, image_url, video_url from achievements where title like 'Soak award ${RUN} %'`,
    PERSIST_TO,
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

  const feedback = queryD1(
    `select message, count(*) as n from beta_feedback where message like 'Soak feedback ${RUN} %' group by message`,
    PERSIST_TO,
  );
  const feedbackCounts = new Map(feedback.map((row) => [row.message, row.n]));
  for (const [message, n] of feedbackCounts)
    if (n > 1) violations.push(`duplicate feedback: "${message}" stored ${n} times`);
  for (const message of ledger.feedback.keys())
    if (!feedbackCounts.has(message)) violations.push(`lost feedback: "${message}"`);

  for (const error of stats.serverErrors.slice(0, 20)) violations.push(`5xx: ${error}`);
  // Every request the app failed (5xx), from its own structured log: there must be none.
  // Wrangler prints warnings and errors as "▲ [WARNING] {...}" / "✘ [ERROR] {...}" with colours.
  const appLog = readFileSync(LOG_FILE, "utf8")
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
  const appErrors = appLog.filter((entry) => entry.message === "request failed");
  for (const entry of appErrors.slice(0, 20))
    violations.push(`5xx in the app's log: ${entry.method} ${entry.path} → ${entry.status}`);
  if (stats.serverErrors.length > 20) violations.push(`… and ${stats.serverErrors.length - 20} more 5xx`);
  return {
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

/** Every object in the local R2 bucket, read from wrangler's persisted state once the server is stopped. */
async function listBucket() {
  const mf = new Miniflare({
    modules: true,
    script: "export default { fetch() { return new Response(null, { status: 404 }); } }",
    r2Buckets: { MEDIA: BUCKET_NAME },
    r2Persist: join(PERSIST_TO, "v3", "r2"),
  });
  try {
    const bucket = await mf.getR2Bucket("MEDIA");
    const keys = [];
    let cursor;
    do {
      const page = await bucket.list({ cursor, limit: 1000 });
      keys.push(...page.objects.map((object) => object.key));
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor);
    return keys;
  } finally {
    await mf.dispose();
  }
}

/** R2 objects that no row refers to: an upload whose write failed or was a duplicate must leave nothing behind. */
function orphans(keys) {
  const urls = queryD1(
    `select image_url as url from achievements where image_url like '/media/%'
     union all select video_url from achievements where video_url like '/media/%'
     union all select avatar_url from profiles where avatar_url like '/media/%'
     union all select intro_video_url from profiles where intro_video_url like '/media/%'
     union all select intro_video_thumbnail_url from profiles where intro_video_thumbnail_url like '/media/%'`,
    PERSIST_TO,
  );
  const referenced = new Set(urls.map((row) => decodeURIComponent(row.url.slice("/media/".length).split("?")[0])));
  return keys.filter((key) => !referenced.has(key));
}

// ---- The run ----

function report(results) {
  const statuses = [...stats.byStatus].sort(([a], [b]) => a - b);
  const lines = [
    "# Load and soak test",
    "",
    'Written by `npm run soak` (scripts/soak.mjs). See docs/security.md, "Load and soak test".',
    "",
    `- Date: ${results.date}`,
    `- Machine: ${results.machine.os}; ${results.machine.cpus}; ${results.machine.memory}; Node ${results.machine.node}`,
    `- Server: production build under \`wrangler dev\` on ${results.origin}, fresh local state`,
    `- Simulated users: ${config.users} concurrent (${results.admins} organisation admins, ${config.users - results.admins} individuals) for ${config.durationMs / 1000} s`,
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
    "## Verdict",
    "",
    results.violations.length === 0
      ? "PASS: no lost write, no duplicate, no orphaned R2 object, no 5xx."
      : `FAIL: ${results.violations.length} violation(s):`,
    ...results.violations.slice(0, 50).map((v) => `- ${v}`),
    "",
  ];
  return lines.join("\n");
}

async function main() {
  if (!config.skipBuild) build();
  freshState(PERSIST_TO);
  const server = await startServer(config.port, { persistTo: PERSIST_TO, logFile: LOG_FILE });
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
    const progress = setInterval(() => log(`${stats.requests} requests, ${stats.serverErrors.length} 5xx`), 10_000);
    // Arrivals spread over the first two seconds, as real users do not all click at once.
    await Promise.all(
      clients.map(async (client, i) => {
        await sleep((i / clients.length) * 2000);
        await simulate(client, deadline);
      }),
    );
    clearInterval(progress);
  } finally {
    server.stop();
  }
  const seconds = (Date.now() - started) / 1000;
  await sleep(1000); // let workerd let go of the state files
  const { violations, counts } = check(clients);
  const keys = await listBucket();
  const orphaned = orphans(keys);
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
