import { base32 } from "@better-auth/utils/base32";
import { createOTP } from "@better-auth/utils/otp";
import { symmetricDecrypt, symmetricEncrypt } from "better-auth/crypto";
import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import * as OTPAuth from "otpauth";
import { describe, expect, it } from "vitest";
import { tokenHashOf } from "#app/utils/token-hash.server.ts";
import { rewrapTwoFactorSecrets, twoFactorKeyOf } from "#app/utils/two-factor-secrets.server.ts";
import { createDb } from "#db/client.ts";
import worker from "#workers/test-app.ts";
import { writeSession } from "./account-factory.ts";
import { expectConsoleError } from "./console-errors.ts";
import {
  cookiesFrom,
  countRows,
  createAccount,
  get,
  mailsTo,
  newClientNetwork,
  PASSWORD,
  passwordResetToken,
  postForm,
  toastFrom,
} from "./helpers.ts";

// Two-factor sign-in (issue 30, decision 060): TOTP as RFC 6238 defines it and as an app nobody
// here wrote computes it; turning it on from Settings; the second sign-in step with a code, a
// recovery code (each once) or a trusted browser; 5 wrong codes end a pending sign-in; a reset
// keeps it on; turning it on ends the other sessions; no code works twice.

const STEP_MS = 30_000;

// ---- RFC 6238, Appendix B (SHA-1, the key is the ASCII "12345678901234567890") ----
const RFC_KEY = "12345678901234567890";
const RFC_VECTORS = [
  { time: 59, code: "94287082" },
  { time: 1111111109, code: "07081804" },
  { time: 1111111111, code: "14050471" },
  { time: 1234567890, code: "89005924" },
  { time: 2000000000, code: "69279037" },
  { time: 20000000000, code: "65353130" },
];

describe("TOTP (RFC 6238)", () => {
  it.each(RFC_VECTORS)("the library's OTP gives Appendix B's $code at T=$time", async ({ time, code }) => {
    expect(await createOTP(RFC_KEY, { digits: 8 }).hotp(Math.floor(time / 30))).toBe(code);
  });

  it.each(RFC_VECTORS)("6 digits at T=$time agree with otpauth", async ({ time, code }) => {
    const theirs = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromLatin1(RFC_KEY), digits: 6, period: 30 });
    const ours = await createOTP(RFC_KEY, { digits: 6, period: 30 }).hotp(Math.floor(time / 30));
    expect(ours).toBe(theirs.generate({ timestamp: time * 1000 }));
    expect(ours).toBe(code.slice(2));
  });
});

// ---- Helpers: a person turning it on through the forms, and a browser signing in ----

/** The Settings page as HTML. */
const settingsPage = async (cookie: string) => {
  const response = await get("/settings/security", cookie);
  expect(response.status).toBe(200);
  return response.text();
};

/** The key Settings shows while a setup waits, as an authenticator app takes it. */
const keyOnPage = (html: string) =>
  /data-testid="two-factor-key"[^>]*>([A-Z2-7 ]+)</.exec(html)?.[1]?.replace(/ /g, "");

const recoveryCodesOnPage = (html: string) =>
  [.../data-testid="recovery-codes"[^>]*>(.*?)<\/ul>/s.exec(html)![1]!.matchAll(/<li>([^<]+)<\/li>/g)].map(
    (match) => match[1]!,
  );

/** A code from an authenticator app holding `key`, `steps` steps from now (the server accepts ±1). */
const codeFrom = (key: string, steps = 0) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(key), digits: 6, period: 30 }).generate({
    timestamp: Date.now() + steps * STEP_MS,
  });

/** A person with two-factor turned on through Settings: its key, recovery codes and new cookie. */
async function withTwoFactor() {
  const person = await createAccount();
  const enabled = await postForm("/settings/security", { intent: "enable-two-factor", password: PASSWORD }, person);
  expect(enabled.status).toBe(302);
  expect(toastFrom(enabled)?.title).toBe("Scan the QR code");
  const setup = await settingsPage(person.cookie);
  expect(setup).toContain('aria-label="QR code to scan with your authenticator app"');
  const key = keyOnPage(setup)!;
  expect(key).toMatch(/^[A-Z2-7]{32,}$/);
  const confirmed = await postForm("/settings/security", { intent: "confirm-two-factor", code: codeFrom(key) }, person);
  expect(confirmed.status).toBe(200);
  const page = await confirmed.text();
  expect(page).toContain("Two-factor authentication is on");
  const recoveryCodes = recoveryCodesOnPage(page);
  const cookie = cookiesFrom(confirmed, person.cookie);
  return { ...person, key, recoveryCodes, cookie };
}

/** A browser signing in with the password: where it was sent, and its cookies. */
async function signInWithPassword(email: string, cookie = "") {
  const response = await postForm("/auth", { intent: "signin", email, password: PASSWORD }, { cookie });
  expect(response.status).toBe(302);
  return { location: response.headers.get("Location"), cookie: cookiesFrom(response, cookie) };
}

const secondStep = (cookie: string, fields: Record<string, string>, ip = newClientNetwork()) =>
  postForm("/auth/two-factor", fields, { cookie, ip });

const twoFactorOf = (userId: string) =>
  env.DB.prepare(
    "select u.two_factor_enabled as enabled, (select count(*) from two_factors where user_id = u.id) as rows from users u where u.id = ?",
  )
    .bind(userId)
    .first<{ enabled: number; rows: number }>();

const signedOut = (response: Response) =>
  response.status === 302 && response.headers.get("Location")!.startsWith("/auth?redirectTo=");

describe("turning two-factor on", () => {
  it("shows the QR code and key, is confirmed by a code from otpauth, and shows ten recovery codes once", async () => {
    const person = await withTwoFactor();
    expect(person.recoveryCodes).toHaveLength(10);
    for (const code of person.recoveryCodes) expect(code).toMatch(/^[a-z0-9]{4}(-[a-z0-9]{4}){5}$/);
    expect(await twoFactorOf(person.id)).toEqual({ enabled: 1, rows: 1 });
    // Once: the page shows them no more, nor the key.
    const again = await settingsPage(person.cookie);
    expect(again).not.toContain(person.recoveryCodes[0]);
    expect(keyOnPage(again)).toBeUndefined();
    expect(again).toContain("Generate new codes");
  });

  it("ends every other session; this browser continues", async () => {
    const person = await createAccount();
    const other = await writeSession(person.id);
    await postForm("/settings/security", { intent: "enable-two-factor", password: PASSWORD }, person);
    const key = keyOnPage(await settingsPage(person.cookie))!;
    const confirmed = await postForm(
      "/settings/security",
      { intent: "confirm-two-factor", code: codeFrom(key) },
      person,
    );
    expect(confirmed.status).toBe(200);
    expect(signedOut(await get("/settings", other.cookie))).toBe(true);
    expect((await get("/settings", cookiesFrom(confirmed, person.cookie))).status).toBe(200);
    expect(await countRows("select count(*) as n from sessions where user_id = ?", person.id)).toBe(1);
  });

  it("refuses a wrong password, and a wrong code leaves it off", async () => {
    const person = await createAccount();
    const wrongPassword = await postForm(
      "/settings/security",
      { intent: "enable-two-factor", password: "not-it-123" },
      person,
    );
    expect(wrongPassword.status).toBe(400);
    expect(await wrongPassword.text()).toContain("Current password is incorrect");
    await postForm("/settings/security", { intent: "enable-two-factor", password: PASSWORD }, person);
    const key = keyOnPage(await settingsPage(person.cookie))!;
    const wrong = String((Number(codeFrom(key)) + 1) % 1_000_000).padStart(6, "0");
    const refused = await postForm("/settings/security", { intent: "confirm-two-factor", code: wrong }, person);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("That code is not right");
    expect((await twoFactorOf(person.id))?.enabled).toBe(0);
    // The setup still waits, with the same key.
    expect(keyOnPage(await settingsPage(person.cookie))).toBe(key);
  });
});

describe("signing in with two-factor on", () => {
  it("asks for a code on a second step, then signs in; the same code never works twice", async () => {
    const person = await withTwoFactor();
    const browser = await signInWithPassword(person.email);
    expect(browser.location).toBe("/auth/two-factor");
    expect(browser.cookie).not.toContain("passport.session_token");
    const page = await get("/auth/two-factor", browser.cookie);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Trust this device for 30 days");
    expect(html).toContain('href="/auth/two-factor?method=recovery"');

    const code = codeFrom(person.key, 1);
    const done = await secondStep(browser.cookie, { intent: "verify-code", code });
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/dashboard");
    expect((await get("/settings", cookiesFrom(done, browser.cookie))).status).toBe(200);

    // Someone who saw that code, with the password, in another browser.
    const thief = await signInWithPassword(person.email);
    const replayed = await secondStep(thief.cookie, { intent: "verify-code", code });
    expect(replayed.status).toBe(400);
    expect(await replayed.text()).toContain("That code was already used");
  });

  it("keeps where the person was going", async () => {
    const person = await withTwoFactor();
    const response = await postForm("/auth", {
      intent: "signin",
      email: person.email,
      password: PASSWORD,
      redirectTo: "/settings",
    });
    expect(response.headers.get("Location")).toBe("/auth/two-factor?redirectTo=%2Fsettings");
    const done = await secondStep(cookiesFrom(response), {
      intent: "verify-code",
      code: codeFrom(person.key, 1),
      redirectTo: "/settings",
    });
    expect(done.headers.get("Location")).toBe("/settings");
  });

  it("refuses a wrong code with a field error, and ends the pending sign-in after 5", async () => {
    const person = await withTwoFactor();
    const browser = await signInWithPassword(person.email);
    const wrong = String((Number(codeFrom(person.key, 1)) + 500_000) % 1_000_000).padStart(6, "0");
    for (let attempt = 1; attempt <= 5; attempt++) {
      const refused = await secondStep(browser.cookie, { intent: "verify-code", code: wrong });
      expect(refused.status).toBe(401);
      expect(await refused.text()).toContain("That code is not right");
    }
    // Even the right code no longer helps: back to the password.
    const ended = await secondStep(browser.cookie, { intent: "verify-code", code: codeFrom(person.key, 1) });
    expect(ended.status).toBe(302);
    expect(ended.headers.get("Location")).toBe("/auth");
    expect(toastFrom(ended)?.title).toBe("Please sign in again");
    const after = cookiesFrom(ended, browser.cookie);
    expect(after).not.toContain("passport.session_token");
    expect((await get("/auth/two-factor", after)).headers.get("Location")).toBe("/auth");
  });

  it("sends a browser without a pending sign-in back to /auth", async () => {
    const page = await get("/auth/two-factor");
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe("/auth");
    const post = await secondStep("", { intent: "verify-code", code: "123456" });
    expect(post.status).toBe(302);
    expect(post.headers.get("Location")).toBe("/auth");
  });

  it("takes a recovery code (however typed) once only", async () => {
    const person = await withTwoFactor();
    const [code] = person.recoveryCodes;
    const first = await signInWithPassword(person.email);
    const typed = code!.replaceAll("-", "").toUpperCase();
    const done = await secondStep(first.cookie, { intent: "verify-recovery-code", code: typed });
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/dashboard");

    const second = await signInWithPassword(person.email);
    const refused = await secondStep(second.cookie, { intent: "verify-recovery-code", code: code! });
    expect(refused.status).toBe(401);
    expect(await refused.text()).toContain("That recovery code is not right, or it was already used.");
    // The others still work.
    const other = await secondStep(second.cookie, { intent: "verify-recovery-code", code: person.recoveryCodes[1]! });
    expect(other.status).toBe(302);
  });

  it("skips the second step in a browser trusted for 30 days", async () => {
    const person = await withTwoFactor();
    const browser = await signInWithPassword(person.email);
    const done = await secondStep(browser.cookie, {
      intent: "verify-code",
      code: codeFrom(person.key, 1),
      trustDevice: "on",
    });
    expect(done.status).toBe(302);
    const trust = done.headers.getSetCookie().find((line) => line.startsWith("passport.trust_device="));
    expect(trust).toMatch(/Max-Age=2592000/i);
    // Signed out, then back: the password alone, in this browser only.
    const jar = cookiesFrom(done, browser.cookie)
      .split("; ")
      .filter((pair) => pair.startsWith("passport.trust_device="))
      .join("; ");
    const again = await signInWithPassword(person.email, jar);
    expect(again.location).toBe("/dashboard");
    expect(again.cookie).toContain("passport.session_token");
    const elsewhere = await signInWithPassword(person.email);
    expect(elsewhere.location).toBe("/auth/two-factor");
  });

  it("stays on after a password reset: the reset's sign-in asks for the code", async () => {
    const person = await withTwoFactor();
    await postForm("/auth/forgot-password", { intent: "forgot-password", email: person.email });
    const token = (await passwordResetToken(person.email))!;
    const reset = await postForm(`/auth/reset-password?token=${encodeURIComponent(token)}`, {
      intent: "reset-password",
      token,
      newPassword: "brand-new-horse-9",
      confirmPassword: "brand-new-horse-9",
    });
    expect(reset.status).toBe(302);
    expect(reset.headers.get("Location")).toBe("/auth/two-factor");
    expect(cookiesFrom(reset)).not.toContain("passport.session_token");
    expect(await twoFactorOf(person.id)).toEqual({ enabled: 1, rows: 1 });
    const done = await secondStep(cookiesFrom(reset), { intent: "verify-code", code: codeFrom(person.key, 1) });
    expect(done.headers.get("Location")).toBe("/dashboard");
  });
});

describe("managing two-factor in Settings", () => {
  it("generates new recovery codes with the password: shown once, the old ones stop working", async () => {
    const person = await withTwoFactor();
    const refused = await postForm(
      "/settings/security",
      { intent: "regenerate-recovery-codes", password: "not-it-123" },
      { cookie: person.cookie },
    );
    expect(refused.status).toBe(400);
    const renewed = await postForm(
      "/settings/security",
      { intent: "regenerate-recovery-codes", password: PASSWORD },
      { cookie: person.cookie },
    );
    expect(renewed.status).toBe(200);
    const fresh = recoveryCodesOnPage(await renewed.text());
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(person.recoveryCodes[0]);
    const browser = await signInWithPassword(person.email);
    const old = await secondStep(browser.cookie, { intent: "verify-recovery-code", code: person.recoveryCodes[0]! });
    expect(old.status).toBe(401);
    const now = await secondStep(browser.cookie, { intent: "verify-recovery-code", code: fresh[0]! });
    expect(now.status).toBe(302);
  });

  it("turns off only with the password and a current code", async () => {
    const person = await withTwoFactor();
    const { cookie } = person;
    const code = codeFrom(person.key, 1);
    const wrongPassword = await postForm(
      "/settings/security",
      { intent: "disable-two-factor", password: "not-it-123", code },
      { cookie },
    );
    expect(wrongPassword.status).toBe(400);
    expect(await wrongPassword.text()).toContain("Current password is incorrect");
    const wrongCode = await postForm(
      "/settings/security",
      { intent: "disable-two-factor", password: PASSWORD, code: "000000" === code ? "111111" : "000000" },
      { cookie },
    );
    expect(wrongCode.status).toBe(400);
    expect(await wrongCode.text()).toContain("That code is not right");
    expect((await twoFactorOf(person.id))?.enabled).toBe(1);

    const off = await postForm(
      "/settings/security",
      { intent: "disable-two-factor", password: PASSWORD, code },
      { cookie },
    );
    expect(off.status).toBe(302);
    expect(toastFrom(off)?.title).toBe("Two-factor authentication is off");
    expect(await twoFactorOf(person.id)).toEqual({ enabled: 0, rows: 0 });
    expect((await signInWithPassword(person.email)).location).toBe("/dashboard");
    // The owner is told of both changes, with a way to their settings.
    const [offMail] = await mailsTo(person.email, "Two-factor authentication was turned off");
    expect(offMail?.text).toContain("http://localhost/settings/security#two-factor");
    expect(await mailsTo(person.email, "Two-factor authentication was turned on")).toHaveLength(1);
  });

  it("turns off with a recovery code instead of a code", async () => {
    const person = await withTwoFactor();
    const off = await postForm(
      "/settings/security",
      { intent: "disable-two-factor", password: PASSWORD, code: person.recoveryCodes[3]! },
      { cookie: person.cookie },
    );
    expect(off.status).toBe(302);
    expect((await twoFactorOf(person.id))?.enabled).toBe(0);
  });

  it("serves none of the library's two-factor endpoints over HTTP", async () => {
    const person = await withTwoFactor();
    for (const path of ["/api/auth/two-factor/disable", "/api/auth/two-factor/verify-totp"]) {
      const response = await postForm(path, { password: PASSWORD, code: codeFrom(person.key, 1) }, person);
      expect(response.status).toBe(404);
    }
  });
});

describe("two-factor's own secret (issue 43, decision 098)", () => {
  const TWO_FACTOR_SECRET = env.TWO_FACTOR_SECRETS.slice(env.TWO_FACTOR_SECRETS.indexOf(":") + 1);
  const rowOf = (userId: string) =>
    env.DB.prepare("select secret, backup_codes as backupCodes from two_factors where user_id = ?")
      .bind(userId)
      .first<{ secret: string; backupCodes: string }>()
      .then((row) => row!);
  /** The authenticator's secret as the app's key shows it (base32), decrypted with `key`. */
  const keyWith = async (key: Parameters<typeof symmetricDecrypt>[0]["key"], data: string) =>
    base32.encode(await symmetricDecrypt({ key, data }), { padding: false });
  const frequentCron = async () => {
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "*/10 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
  };
  const fromKey = (secret: string) => ({ keys: new Map([[1, secret]]), currentVersion: 1, legacySecret: "" });

  it("encrypts the authenticator's secret under TWO_FACTOR_SECRETS, and keeps the recovery codes only as hashes", async () => {
    const person = await withTwoFactor();
    const { secret, backupCodes } = await rowOf(person.id);
    expect(secret.startsWith("$ba$1$")).toBe(true);
    expect(await keyWith(fromKey(TWO_FACTOR_SECRET), secret)).toBe(person.key);
    await expect(keyWith(fromKey(env.SESSION_SECRET), secret)).rejects.toThrow();
    // The codes shown are nowhere in the table; their SHA-256 hashes are, and nothing else.
    for (const code of person.recoveryCodes) expect(backupCodes).not.toContain(code);
    const hashes = await Promise.all(person.recoveryCodes.map(tokenHashOf));
    expect((JSON.parse(backupCodes) as string[]).sort()).toEqual(hashes.sort());
  });

  it("still reads an authenticator written under SESSION_SECRET, and the frequent cron re-wraps it", async () => {
    const person = await withTwoFactor();
    const plain = await symmetricDecrypt({ key: fromKey(TWO_FACTOR_SECRET), data: (await rowOf(person.id)).secret });
    // As rows were written before: the secret and the codes encrypted with SESSION_SECRET.
    const legacy = {
      secret: await symmetricEncrypt({ key: env.SESSION_SECRET, data: plain }),
      backupCodes: await symmetricEncrypt({ key: env.SESSION_SECRET, data: JSON.stringify(person.recoveryCodes) }),
    };
    await env.DB.prepare("update two_factors set secret = ?, backup_codes = ? where user_id = ?")
      .bind(legacy.secret, legacy.backupCodes, person.id)
      .run();
    const byCode = await signInWithPassword(person.email);
    expect((await secondStep(byCode.cookie, { intent: "verify-code", code: codeFrom(person.key, 1) })).status).toBe(
      302,
    );
    const byRecovery = await signInWithPassword(person.email);
    const recovered = await secondStep(byRecovery.cookie, {
      intent: "verify-recovery-code",
      code: person.recoveryCodes[0]!,
    });
    expect(recovered.status).toBe(302);

    await frequentCron();
    const { secret, backupCodes } = await rowOf(person.id);
    expect(secret.startsWith("$ba$1$")).toBe(true);
    expect(await keyWith(fromKey(TWO_FACTOR_SECRET), secret)).toBe(person.key);
    // The code used is gone; the other nine are kept as hashes.
    const rest = await Promise.all(person.recoveryCodes.slice(1).map(tokenHashOf));
    expect((JSON.parse(backupCodes) as string[]).sort()).toEqual(rest.sort());
    const again = await signInWithPassword(person.email);
    expect(
      (await secondStep(again.cookie, { intent: "verify-recovery-code", code: person.recoveryCodes[1]! })).status,
    ).toBe(302);
  });

  it("moves authenticators to a new version, and leaves one no configured version opens", async () => {
    const person = await withTwoFactor();
    const orphan = await withTwoFactor();
    await env.DB.prepare("update two_factors set secret = ? where user_id = ?")
      .bind(await symmetricEncrypt({ key: fromKey("x".repeat(40)), data: "a secret nobody can open" }), orphan.id)
      .run();
    const before = await rowOf(orphan.id);
    const rotated = twoFactorKeyOf({
      TWO_FACTOR_SECRETS: [
        { version: 2, value: "n".repeat(40) },
        { version: 1, value: TWO_FACTOR_SECRET },
      ],
      SESSION_SECRET: env.SESSION_SECRET,
    });
    expectConsoleError(/two-factor secret not re-wrapped/);
    const result = await rewrapTwoFactorSecrets(createDb(env.DB), rotated);
    expect(result.failed).toBe(1);
    expect(result.rewrapped).toBeGreaterThanOrEqual(1);
    const { secret } = await rowOf(person.id);
    expect(secret.startsWith("$ba$2$")).toBe(true);
    expect(await keyWith(rotated, secret)).toBe(person.key);
    expect(await rowOf(orphan.id)).toEqual(before);
  });
});
