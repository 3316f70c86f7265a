import { createExecutionContext, env, SELF } from "cloudflare:test";
import Stripe from "stripe";
import { afterEach, beforeEach, describe, expect, inject, it, vi } from "vitest";
import { createPersonalSubscription } from "#app/services/subscriptions.server.ts";
import { getLoadContext } from "#workers/load-context.ts";
import {
  confirmationToken,
  cookiesFrom,
  createAccount,
  get,
  ORIGIN,
  PASSWORD,
  postForm,
  signIn,
  signUp,
  signUpCookie,
  uniqueEmail,
  joinByInviteLink,
} from "./helpers.ts";
import { createOrganisation, membershipOf } from "./factories.ts";

// Issue 9, item 7: authentication failures, authorization denials, cross-site refusals and
// webhook signature failures are logged as structured events, and no secret ever reaches a log.
// The Worker runs in this isolate (SELF), so spying on the console captures its every line.

const WEBHOOK_SECRET = "whsec_test_0123456789abcdef";
const STRIPE_KEY = "sk_test_logcheck_9f8e7d6c5b4a";
const NEW_PASSWORD = "brand-new-horse-7";
const WRONG_PASSWORD = "wrong-horse-battery-9";

let lines: string[] = [];
beforeEach(() => {
  lines = [];
  for (const method of ["log", "info", "warn", "error", "debug"] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      lines.push(
        args
          .map((arg) =>
            typeof arg === "string" ? arg : arg instanceof Error ? `${arg.message} ${arg.stack}` : JSON.stringify(arg),
          )
          .join(" "),
      );
    });
  }
});
afterEach(() => {
  vi.restoreAllMocks();
});

type Event = { level: string; event?: string; reason?: string; [key: string]: unknown };
const events = (name: string) =>
  lines
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Event)
    .filter((entry) => entry.event === name);

/** The session token, both as the cookie carries it (token.signature) and the bare token. */
function sessionSecrets(cookie: string) {
  const value = /passport\.session_token=([^;]+)/.exec(cookie)?.[1];
  if (!value) return [];
  const decoded = decodeURIComponent(value);
  return [value, decoded, decoded.split(".")[0]!];
}

async function signedWebhook(payload: string, secret: string) {
  const signature = await Stripe.webhooks.generateTestHeaderStringAsync({
    payload,
    secret,
    cryptoProvider: Stripe.createSubtleCryptoProvider(),
  });
  return SELF.fetch(`${ORIGIN}/api/stripe/webhook`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Stripe-Signature": signature },
    body: payload,
  });
}

describe("security events", () => {
  it("a wrong password, an unknown address and an unconfirmed account are auth.failed events", async () => {
    const { email } = await createAccount();
    expect((await signIn(email, WRONG_PASSWORD)).status).toBe(401);
    expect((await signIn(uniqueEmail("nobody"), WRONG_PASSWORD)).status).toBe(401);
    const waiting = uniqueEmail("waiting");
    await signUp({ email: waiting });
    expect((await signIn(waiting)).status).toBe(403);

    const failed = events("auth.failed");
    expect(failed.map((entry) => entry.reason)).toEqual([
      "invalid email or password",
      "invalid email or password",
      "email not verified",
    ]);
    for (const entry of failed) {
      expect(entry).toMatchObject({ level: "warn", route: "POST /auth" });
      // A pseudonym of the address, not the address.
      expect(entry.email).toMatch(/^[0-9a-f]{16}$/);
      expect(JSON.stringify(entry)).not.toContain("@example.com");
    }
  });

  it("a malformed, forged or expired confirmation token is an auth.failed event", async () => {
    const email = uniqueEmail("confirm");
    await signUp({ email });
    const token = (await confirmationToken(email))!;
    expect((await postForm("/auth/confirm", { token: "not-a-token" })).status).toBe(400);
    expect((await postForm("/auth/confirm", { token: `${token.slice(0, -3)}AAA` })).status).toBe(400);
    // A day later the link has expired.
    vi.useFakeTimers({ now: Date.now() + 2 * 24 * 60 * 60 * 1000, toFake: ["Date"] });
    try {
      expect((await postForm("/auth/confirm", { token })).status).toBe(400);
    } finally {
      vi.useRealTimers();
    }
    expect(events("auth.failed").map((entry) => entry.reason)).toEqual([
      "malformed confirmation token",
      "invalid or expired confirmation token",
      "invalid or expired confirmation token",
    ]);
  });

  it("a wrong current password is an auth.failed event", async () => {
    const { id, cookie } = await createAccount();
    const response = await postForm(
      "/settings/security",
      {
        intent: "change-password",
        currentPassword: WRONG_PASSWORD,
        newPassword: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      },
      { cookie },
    );
    expect(response.status).toBe(400);
    expect(events("auth.failed")).toEqual([
      expect.objectContaining({ reason: "wrong current password", userId: id, route: "POST /settings/security" }),
    ]);
  });

  it("the shared guards log their denials: signed out, archived, not an admin, not the recipient", async () => {
    const { admin, organizationId } = await createOrganisation({ name: "Logged Org" });
    const stranger = await createAccount();
    const membership = { id: await membershipOf({ organizationId, userId: admin.id }) };

    expect((await get("/dashboard")).status).toBe(302);
    expect(
      (await postForm("/dashboard", { intent: "remove", membershipId: membership!.id }, { cookie: stranger.cookie }))
        .status,
    ).toBe(403);
    const achievement = crypto.randomUUID();
    await env.DB.prepare(
      "insert into achievements (id, user_id, title, type, date, status, is_visible, created_by, created_at) values (?, ?, 'Theirs', 'award', '2024-01-01', 'pending', 1, ?, 0)",
    )
      .bind(achievement, admin.id, admin.id)
      .run();
    expect(
      (await postForm("/passport", { intent: "accept", achievementId: achievement }, { cookie: stranger.cookie }))
        .status,
    ).toBe(403);
    await postForm("/settings/danger", { intent: "archive" }, { cookie: stranger.cookie });
    expect((await get("/passport", stranger.cookie)).status).toBe(302);

    const denied = events("authz.denied");
    expect(denied[0]).toMatchObject({ reason: "signed out", status: 302, route: "GET /dashboard" });
    expect(denied).toContainEqual(
      expect.objectContaining({
        reason: "not an admin of the membership's organisation",
        status: 403,
        userId: stranger.id,
        membershipId: membership!.id,
      }),
    );
    expect(denied).toContainEqual(
      expect.objectContaining({ reason: "not the recipient of the achievement", userId: stranger.id }),
    );
    expect(denied.at(-1)).toMatchObject({ reason: "archived account", route: "GET /passport", userId: stranger.id });
    for (const entry of denied) expect(entry.requestId).toEqual(expect.any(String));
  });

  it("cross-site mutations and foreign WebSocket upgrades are csrf.refused events", async () => {
    const { cookie } = await createAccount();
    const response = await SELF.fetch(`${ORIGIN}/settings`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://evil.example", Cookie: cookie },
      body: "intent=archive",
      redirect: "manual",
    });
    expect(response.status).toBe(403);
    const socket = await SELF.fetch(`${ORIGIN}/api/notifications/socket`, {
      headers: { Upgrade: "websocket", Cookie: cookie },
    });
    expect(socket.status).toBe(403);
    expect(events("csrf.refused")).toEqual([
      expect.objectContaining({ reason: "foreign origin", origin: "https://evil.example", route: "POST /settings" }),
      expect.objectContaining({ reason: "missing origin", route: "GET /api/notifications/socket" }),
    ]);
  });

  it("an unsigned or wrongly signed webhook is a webhook.refused event", async () => {
    const payload = JSON.stringify({
      id: "evt_log",
      object: "event",
      type: "ping",
      created: Math.floor(Date.now() / 1000),
      data: { object: {} },
    });
    expect((await SELF.fetch(`${ORIGIN}/api/stripe/webhook`, { method: "POST", body: payload })).status).toBe(400);
    expect((await signedWebhook(payload, "whsec_someone_else_entirely")).status).toBe(400);
    expect(events("webhook.refused").map((entry) => entry.reason)).toEqual(["missing signature", "invalid signature"]);
  });
});

describe("no secret is ever logged", () => {
  it("through sign-up, confirmation, sign-in (good and bad), password change, Stripe checkout and webhooks", async () => {
    const secrets = new Set<string>([
      PASSWORD,
      NEW_PASSWORD,
      WRONG_PASSWORD,
      WEBHOOK_SECRET,
      STRIPE_KEY,
      env.SESSION_SECRET,
    ]);

    // Sign-up and confirmation.
    const email = uniqueEmail("secrets");
    const signedUp = await signUp({ name: "Sam Secret", email, organizationName: "Secret Org" });
    const token = (await confirmationToken(email))!;
    secrets.add(token);
    const confirmed = await postForm("/auth/confirm", { token }, { cookie: signUpCookie(signedUp) });
    expect(confirmed.status).toBe(200);
    let cookie = cookiesFrom(confirmed);
    sessionSecrets(cookie).forEach((secret) => secrets.add(secret));
    // Used twice: the address is already confirmed, so it answers as before but starts no session.
    expect((await postForm("/auth/confirm", { token })).headers.getSetCookie()).toEqual([]);
    await postForm("/auth/confirm", { token: `${token.slice(0, -3)}AAA` });

    // Sign-in, bad then good, and a session token from the auth API too.
    await signIn(email, WRONG_PASSWORD);
    const signedIn = await signIn(email);
    expect(signedIn.status).toBe(302);
    sessionSecrets(cookiesFrom(signedIn)).forEach((secret) => secrets.add(secret));

    // Password change: wrong, then right (the session continues under a new token).
    await postForm(
      "/settings/security",
      {
        intent: "change-password",
        currentPassword: WRONG_PASSWORD,
        newPassword: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      },
      { cookie },
    );
    const changed = await postForm(
      "/settings/security",
      {
        intent: "change-password",
        currentPassword: PASSWORD,
        newPassword: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      },
      { cookie },
    );
    expect(changed.status).toBe(302);
    cookie = cookiesFrom(changed, cookie);
    sessionSecrets(cookie).forEach((secret) => secrets.add(secret));
    expect((await get("/dashboard", cookie)).status).toBe(200);

    // A Stripe checkout with a secret key (against the local fake), and webhooks good and bad.
    const user = await env.DB.prepare("select id from users where email = ?").bind(email).first<{ id: string }>();
    const organizationId = (await env.DB.prepare(
      "select organization_id as id from organization_roles where user_id = ?",
    )
      .bind(user!.id)
      .first<{ id: string }>())!.id;
    const member = await createAccount();
    await joinByInviteLink(organizationId, member.cookie);
    sessionSecrets(member.cookie).forEach((secret) => secrets.add(secret));
    const context = getLoadContext({
      request: new Request(ORIGIN),
      context: {
        cloudflare: {
          env: { ...env, STRIPE_SECRET_KEY: STRIPE_KEY, STRIPE_API_BASE: inject("stripeApiBase") } as Env,
          ctx: createExecutionContext(),
        },
      },
    });
    await createPersonalSubscription(context, user!.id, { organizationId, memberUserId: member.id }, ORIGIN);
    const event = {
      id: `evt_${crypto.randomUUID()}`,
      object: "event",
      type: "checkout.session.completed",
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          object: "checkout.session",
          mode: "subscription",
          payment_status: "paid",
          subscription: "sub_log",
          customer: "cus_log",
          metadata: { organizationId, memberUserId: member.id, adminUserId: user!.id },
        },
      },
    };
    const payload = JSON.stringify(event);
    expect((await signedWebhook(payload, WEBHOOK_SECRET)).status).toBe(200);
    expect((await signedWebhook(payload, "whsec_someone_else_entirely")).status).toBe(400);
    const signature = await Stripe.webhooks.generateTestHeaderStringAsync({
      payload,
      secret: WEBHOOK_SECRET,
      cryptoProvider: Stripe.createSubtleCryptoProvider(),
    });
    secrets.add(/v1=([0-9a-f]+)/.exec(signature)![1]!);

    // The run logged its security events...
    expect(events("auth.failed").length).toBeGreaterThanOrEqual(3);
    expect(events("webhook.refused")).toHaveLength(1);
    // ...and not one line carries a secret.
    const leaks = lines.flatMap((line) =>
      [...secrets]
        .filter((secret) => secret && line.includes(secret))
        .map((secret) => `${secret.slice(0, 6)}… in ${line.slice(0, 200)}`),
    );
    expect(leaks).toEqual([]);
  });
});
