import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "#workers/test-app.ts";
import {
  confirmationToken,
  cookiesFrom,
  countRows,
  signUpAndConfirm,
  get,
  newClientNetwork,
  PASSWORD,
  passwordResetToken,
  postForm,
  signIn,
  signUp,
  signUpCookie,
  toastFrom,
  uniqueEmail,
} from "./helpers.ts";
import { expectConsoleError } from "./console-errors.ts";

const NEW_PASSWORD = "brand-new-horse-9";

/** The daily cron, as the runtime fires it. */
async function runCron() {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "0 3 * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

function forgot(email: string, ip = newClientNetwork()) {
  return postForm("/auth/forgot-password", { intent: "forgot-password", email }, { ip });
}

function reset(token: string, password = NEW_PASSWORD, confirm = password, cookie?: string) {
  return postForm(
    `/auth/reset-password?token=${encodeURIComponent(token)}`,
    { intent: "reset-password", token, newPassword: password, confirmPassword: confirm },
    { cookie, ip: newClientNetwork() },
  );
}

async function mailsTo(email: string) {
  const { results } = await env.DB.prepare('select subject from dev_mail where "to" = ? order by rowid')
    .bind(email.toLowerCase())
    .all<{ subject: string }>();
  return results.map((row) => row.subject);
}

describe("forgot password", () => {
  it("the sign-in screen offers it, and the answer is the same whether or not the address has an account", async () => {
    expect(await (await get("/auth")).text()).toContain('href="/auth/forgot-password"');
    const known = await signUpAndConfirm();
    const unknown = uniqueEmail("nobody");
    const answers = await Promise.all([forgot(known.email), forgot(unknown)]);
    for (const [response, email] of [
      [answers[0]!, known.email],
      [answers[1]!, unknown],
    ] as const) {
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe(`/auth/forgot-password?sent=${encodeURIComponent(email)}`);
      expect(toastFrom(response)?.title).toBe("Check your email");
    }
    const page = await (await get(`/auth/forgot-password?sent=${encodeURIComponent(unknown)}`)).text();
    expect(page).toContain("Check your email");
    // Only the real account gets a mail.
    expect(await mailsTo(unknown)).toEqual([]);
    expect(await mailsTo(known.email)).toContain("Reset your Career Passport password");
  });

  it("the link sets a new password once, ends every session, signs this browser in and says so by mail", async () => {
    const { id, email, cookie } = await signUpAndConfirm();
    const otherDevice = cookiesFrom(await signIn(email));
    await forgot(email);
    const token = (await passwordResetToken(email))!;

    // Opening the link changes nothing and shows the form.
    const page = await get(`/auth/reset-password?token=${token}`);
    expect(await page.text()).toContain("Choose a new password");
    expect(await countRows("select count(*) as n from sessions where user_id = ?", id)).toBe(2);

    // Mismatched passwords: the spec's message, nothing changed, the token still good.
    const mismatch = await reset(token, NEW_PASSWORD, "something-else-1");
    expect(mismatch.status).toBe(400);
    expect(await mismatch.text()).toContain("Passwords don&#x27;t match");
    const short = await reset(token, "12345");
    expect(await short.text()).toContain("Password must be at least 6 characters");

    const response = await reset(token);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard");
    expect(toastFrom(response)?.title).toBe("Password updated");
    const session = cookiesFrom(response);
    expect((await get("/dashboard", session)).status).toBe(200);

    // Every earlier session is gone; only the new one remains.
    expect((await get("/dashboard", cookie)).status).toBe(302);
    expect((await get("/dashboard", otherDevice)).status).toBe(302);
    expect(await countRows("select count(*) as n from sessions where user_id = ?", id)).toBe(1);
    // The old password no longer works; the new one does.
    expect((await signIn(email)).status).toBe(401);
    expect((await signIn(email, NEW_PASSWORD)).status).toBe(302);
    expect(await mailsTo(email)).toContain("Your password was changed");

    // Single use: the same link again says it has expired, and changes nothing.
    const again = await reset(token, "yet-another-pass-3");
    expect(again.status).toBe(400);
    expect(await again.text()).toContain("This link has expired");
    expect((await signIn(email, NEW_PASSWORD)).status).toBe(302);
    expect(await (await get(`/auth/reset-password?token=${token}`)).text()).toContain("Send me a new link");
  });

  it("a link older than 1 hour, or a wrong token, says it has expired and offers a new one", async () => {
    const { email } = await signUpAndConfirm();
    await forgot(email);
    const token = (await passwordResetToken(email))!;
    const expiry = await env.DB.prepare("select expires_at, created_at from verifications where identifier = ?")
      .bind(`reset-password:${token}`)
      .first<{ expires_at: number; created_at: number }>();
    // Valid for one hour.
    expect(expiry!.expires_at - expiry!.created_at).toBeGreaterThan(59 * 60 * 1000);
    expect(expiry!.expires_at - expiry!.created_at).toBeLessThanOrEqual(60 * 60 * 1000 + 1000);
    await env.DB.prepare("update verifications set expires_at = ? where identifier = ?")
      .bind(Date.now() - 1000, `reset-password:${token}`)
      .run();

    for (const attempt of [token, `${token.slice(0, -1)}x`, "not-a-token"]) {
      const page = await (await get(`/auth/reset-password?token=${attempt}`)).text();
      expect(page).toContain("This link has expired");
      expect(page).toContain('href="/auth/forgot-password"');
      const response = await reset(attempt);
      expect(response.status).toBe(400);
      expect(await response.text()).toContain("This link has expired");
    }
    expect((await signIn(email)).status).toBe(302);
  });

  it("works without JavaScript: plain form posts all the way", async () => {
    const { email } = await signUpAndConfirm();
    const form = await (await get("/auth/forgot-password")).text();
    expect(form).toMatch(/<form[^>]*method="post"/);
    await forgot(email);
    const page = await (await get(`/auth/reset-password?token=${await passwordResetToken(email)}`)).text();
    expect(page).toMatch(/<form[^>]*method="post"/);
    expect(page).toContain('name="newPassword"');
    expect(page).toContain('name="confirmPassword"');
  });

  it("is limited per address and per network, an IPv6 address counting by its /64", async () => {
    const email = uniqueEmail("flood");
    // One address from many networks: 3 an hour.
    for (let attempt = 0; attempt < 3; attempt++) expect((await forgot(email)).status).toBe(302);
    expect((await forgot(email)).status).toBe(429);

    // Many addresses from one /64, each request from another address inside it: 5 per 15 minutes.
    const prefix = newClientNetwork().replace(/::1$/, "");
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await forgot(uniqueEmail("spray"), `${prefix}:${attempt + 1}:0:0:1`)).status).toBe(302);
    }
    const limited = await forgot(uniqueEmail("spray"), `${prefix}:ffff:1:2:3`);
    expect(limited.status).toBe(429);
    expect(await limited.text()).toContain("Too many attempts. Please wait a minute and try again.");
    // Another network is not affected.
    expect((await forgot(uniqueEmail("spray"))).status).toBe(302);
  });
});

describe("sign-up that cannot be pre-empted", () => {
  it("the victim's sign-up replaces an attacker's unconfirmed one: the attacker's password and links stop working", async () => {
    const victim = uniqueEmail("victim");
    // The attacker signs up the victim's address, as an organisation, and keeps the link they cannot read.
    const attackerSignUp = await signUp({ name: "Mallory", email: victim, organizationName: "Mallory Ltd" });
    const attackerCookie = signUpCookie(attackerSignUp);
    const attackerToken = (await confirmationToken(victim))!;
    const attackerId = (await env.DB.prepare("select id from users where email = ?").bind(victim).first<{
      id: string;
    }>())!.id;
    await forgot(victim);
    const attackerReset = (await passwordResetToken(victim))!;

    // The victim signs up (a different password and name, a personal account) and confirms.
    const victimSignUp = await postForm("/auth?mode=personal", {
      intent: "signup",
      name: "Victoria",
      email: victim,
      password: NEW_PASSWORD,
    });
    expect(victimSignUp.status).toBe(302);
    const confirmed = await postForm(
      "/auth/confirm",
      { token: (await confirmationToken(victim))! },
      { cookie: signUpCookie(victimSignUp) },
    );
    expect(confirmed.status).toBe(200);
    const victimSession = cookiesFrom(confirmed);
    expect((await get("/dashboard", victimSession)).status).toBe(200);

    // One account, the victim's: name, type, no pending organisation.
    const rows = await env.DB.prepare(
      "select u.id, u.name, p.user_type from users u join profiles p on p.id = u.id where u.email = ?",
    )
      .bind(victim)
      .all();
    expect(rows.results).toEqual([expect.objectContaining({ name: "Victoria", user_type: "individual" })]);
    expect(await countRows("select count(*) as n from users where id = ?", attackerId)).toBe(0);
    expect(await countRows("select count(*) as n from organizations where name = 'Mallory Ltd'")).toBe(0);

    // The attacker's password, session, confirmation link and reset link are all dead.
    expect((await signIn(victim, PASSWORD)).status).toBe(401);
    expect(await countRows("select count(*) as n from sessions where user_id = ?", attackerId)).toBe(0);
    const staleConfirm = await postForm("/auth/confirm", { token: attackerToken }, { cookie: attackerCookie });
    expect(staleConfirm.status).toBe(400);
    expect(staleConfirm.headers.getSetCookie().some((line) => line.includes("session_token="))).toBe(false);
    expect((await reset(attackerReset, "attacker-pass-1")).status).toBe(400);
    expect((await signIn(victim, NEW_PASSWORD)).status).toBe(302);
  });

  // Confirming in another browser than the one that signed up: tests/workers/confirmation-elsewhere.test.ts.

  it("the daily cron deletes unconfirmed accounts older than 7 days, and only those", async () => {
    const stale = uniqueEmail("stale");
    const fresh = uniqueEmail("fresh");
    await signUp({ email: stale });
    await signUp({ email: fresh });
    const confirmedOld = await signUpAndConfirm();
    await env.DB.prepare("update users set created_at = ? where email in (?, ?)")
      .bind(Date.now() - 8 * 24 * 60 * 60 * 1000, stale, confirmedOld.email)
      .run();
    await runCron();
    expect(await countRows("select count(*) as n from users where email = ?", stale)).toBe(0);
    expect(await countRows("select count(*) as n from users where email = ?", fresh)).toBe(1);
    expect(await countRows("select count(*) as n from users where id = ?", confirmedOld.id)).toBe(1);
  });
});

/** Known open-redirect payloads: each must end on /dashboard after signing in. */
export const OPEN_REDIRECT_PAYLOADS = [
  "//evil.example",
  "///evil.example",
  "////evil.example",
  "/\\evil.example",
  "/\\/evil.example",
  "\\\\evil.example",
  "/\t/evil.example",
  "/%09/evil.example",
  "/%0a/evil.example",
  "/%0d/evil.example",
  "/\n/evil.example",
  "/%2F/evil.example",
  "/%2f%2fevil.example",
  "/%5Cevil.example",
  "/%5C%5Cevil.example",
  "/%252F%252Fevil.example",
  "/%25%32%66/evil.example",
  "https://evil.example",
  "http:evil.example",
  "javascript:alert(1)",
  "/ /evil.example",
  "/%20/evil.example",
  "/.//evil.example",
  "/x/..//evil.example",
  "//evil.example@localhost",
  "evil.example",
  "/\u0000/evil.example",
];

describe("redirectTo after sign-in", () => {
  it.each(OPEN_REDIRECT_PAYLOADS.map((payload) => [JSON.stringify(payload), payload]))(
    "%s lands on /dashboard",
    async (_, payload) => {
      const { email } = await signUpAndConfirm();
      const response = await postForm("/auth", { intent: "signin", email, password: PASSWORD, redirectTo: payload });
      expect(response.status).toBe(302);
      const location = response.headers.get("Location")!;
      const resolved = new URL(location, "http://localhost");
      expect(resolved.origin).toBe("http://localhost");
      // Anything suspicious falls back to the dashboard rather than to a path built from it.
      expect(location).toBe("/dashboard");
    },
  );

  // Paths that only look odd stay on this origin, and are kept as they are.
  it("a plain path on this origin is kept", async () => {
    const { email } = await signUpAndConfirm();
    const response = await postForm("/auth", {
      intent: "signin",
      email,
      password: PASSWORD,
      redirectTo: "/settings?tab=profile#password",
    });
    expect(response.headers.get("Location")).toBe("/settings?tab=profile#password");
  });
});

describe("signed-in answers are never cached", () => {
  it("pages and their data requests send Cache-Control: private, no-store", async () => {
    // Remix warns (console.error) about the old ?_data request this test makes on purpose.
    expectConsoleError(/Single fetch-enabled apps should not be making \?_data requests/);
    const { cookie } = await signUpAndConfirm();
    for (const path of ["/dashboard", "/settings", "/passport", "/dashboard?_data=routes%2F_app.dashboard", "/"]) {
      const response = await get(path, cookie);
      expect(response.headers.get("Cache-Control"), path).toBe("private, no-store");
    }
    // The sign-in answer that sets the session cookie too.
    const { email } = await signUpAndConfirm();
    expect((await signIn(email)).headers.get("Cache-Control")).toBe("private, no-store");
  });
});
