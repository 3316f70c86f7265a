import { SELF } from "cloudflare:test";
import COMMON_PASSWORDS from "virtual:common-passwords";
import { describe, expect, it } from "vitest";
import { GUESSABLE_PASSWORD_MESSAGE, hasLine } from "#app/utils/password-rules.server.ts";
import {
  countRows,
  createAccount,
  newClientNetwork,
  ORIGIN,
  PASSWORD,
  passwordResetToken,
  postForm,
  signIn,
} from "./helpers.ts";

// Issue 30: a new password is refused when it is one of the most common passwords (in any case),
// or contains the owner's e-mail name or a word of their name, on every form that sets one.

const NAME = "Marigold Quinn";
/** An address whose local part is no word of the name (so each rule is seen on its own). */
const newEmail = () => `zephyrine.${crypto.randomUUID().slice(0, 8)}@example.com`;
const localPart = (email: string) => email.slice(0, email.indexOf("@"));
/** Made by a password generator: on no list, and nothing of the person's. */
const RANDOM_PASSWORD = "vT7q-Lm2Zr-9wXp4-Kc8s";

const refused: [string, (email: string) => string][] = [
  ...["password", "123456", "qwerty", "iloveyou", "letmein", "trustno1", "Password1", "QWERTY123"].map(
    (password): [string, () => string] => [`'${password}', a common password`, () => password],
  ),
  ["the address's local part inside it, in capitals", (email) => `${localPart(email).toUpperCase()}-77`],
  ["a word of the name inside it", () => "the-great-quinn-9"],
];

/** What a refused form answers: the message under the password field, and no password sent back. */
async function expectGuessableRefusal(response: Response, password: string, field = "password") {
  expect(response.status).toBe(400);
  const html = await response.text();
  const message = GUESSABLE_PASSWORD_MESSAGE.replaceAll(".", "\\.");
  expect(html).toMatch(new RegExp(`<p id="[^"]+-${field}-error"[^>]*>${message}</p>`));
  expect(html).not.toContain(`value="${password}"`);
  return html;
}

describe("the list", () => {
  it("is searched correctly: every entry is found, and nothing next to one", () => {
    const entries = COMMON_PASSWORDS.split("\n");
    const listed = new Set(entries);
    expect(entries.length).toBeGreaterThan(95_000);
    expect(entries.filter((entry) => !hasLine(COMMON_PASSWORDS, entry))).toEqual([]);
    const neighbours = entries.flatMap((entry) => [`${entry}~`, entry.slice(0, -1), ` ${entry}`]);
    expect(neighbours.filter((word) => !listed.has(word) && hasLine(COMMON_PASSWORDS, word))).toEqual([]);
  });

  it("leaves out the passwords this project's tests and demo use", () => {
    for (const password of [PASSWORD, RANDOM_PASSWORD, "passport-demo", "brand-new-horse-9", "new-password-1"])
      expect(hasLine(COMMON_PASSWORDS, password)).toBe(false);
  });
});

describe("sign-up", () => {
  const signUp = (email: string, password: string) =>
    postForm("/auth?mode=personal", { intent: "signup", name: NAME, email, password }, { ip: newClientNetwork() });

  it.each(refused)("refuses %s, keeping the name and address typed", async (_, passwordFor) => {
    const email = newEmail();
    const password = passwordFor(email);
    const html = await expectGuessableRefusal(await signUp(email, password), password);
    expect(html).toContain(`value="${NAME}"`);
    expect(html).toContain(`value="${email}"`);
    expect(await countRows("select count(*) as n from users")).toBe(0);
  });

  it("accepts a long random password", async () => {
    const email = newEmail();
    expect((await signUp(email, RANDOM_PASSWORD)).status).toBe(302);
    expect(await countRows("select count(*) as n from users where email = ?", email)).toBe(1);
  });

  it("accepts a name's words shorter than three letters inside the password", async () => {
    const response = await postForm(
      "/auth?mode=personal",
      { intent: "signup", name: "Li Wu", email: newEmail(), password: "li-wu-unbreakable-47" },
      { ip: newClientNetwork() },
    );
    expect(response.status).toBe(302);
  });
});

describe("password change", () => {
  const change = (cookie: string, password: string) =>
    postForm(
      "/settings/security",
      { intent: "change-password", currentPassword: PASSWORD, newPassword: password, confirmPassword: password },
      { cookie, ip: newClientNetwork() },
    );

  it.each(refused)("refuses %s, and the old password still works", async (_, passwordFor) => {
    const { email, cookie } = await createAccount({ name: NAME, email: newEmail() });
    const password = passwordFor(email);
    await expectGuessableRefusal(await change(cookie, password), password, "newPassword");
    expect((await signIn(email, PASSWORD, newClientNetwork())).status).toBe(302);
  });

  it("accepts a long random password", async () => {
    const { email, cookie } = await createAccount({ name: NAME, email: newEmail() });
    expect((await change(cookie, RANDOM_PASSWORD)).status).toBe(302);
    expect((await signIn(email, RANDOM_PASSWORD, newClientNetwork())).status).toBe(302);
  });
});

describe("password reset", () => {
  /** An account and the token of the reset link mailed to it. */
  async function resetLink() {
    const { email } = await createAccount({ name: NAME, email: newEmail() });
    await postForm("/auth/forgot-password", { intent: "forgot-password", email }, { ip: newClientNetwork() });
    return { email, token: (await passwordResetToken(email))! };
  }
  const reset = (token: string, password: string) =>
    postForm(
      `/auth/reset-password?token=${encodeURIComponent(token)}`,
      { intent: "reset-password", token, newPassword: password, confirmPassword: password },
      { ip: newClientNetwork() },
    );

  it.each(refused)("refuses %s, and the link still works", async (_, passwordFor) => {
    const { email, token } = await resetLink();
    const password = passwordFor(email);
    await expectGuessableRefusal(await reset(token, password), password, "newPassword");
    expect(
      await countRows("select count(*) as n from verifications where identifier = ?", `reset-password:${token}`),
    ).toBe(1);
  });

  it("accepts a long random password with the link a refused one left unused", async () => {
    const { email, token } = await resetLink();
    await expectGuessableRefusal(await reset(token, "letmein"), "letmein", "newPassword");
    const response = await reset(token, RANDOM_PASSWORD);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard");
    expect((await signIn(email, RANDOM_PASSWORD, newClientNetwork())).status).toBe(302);
  });
});

describe("the auth library's own endpoints", () => {
  it.each([
    ["/api/auth/sign-up/email", { name: NAME, email: "someone@example.com", password: "password" }],
    ["/api/auth/change-password", { currentPassword: PASSWORD, newPassword: "password" }],
    ["/api/auth/reset-password", { token: "x".repeat(24), newPassword: "password" }],
    ["/api/auth/set-password", { newPassword: "password" }],
  ])("%s, which would set a password past these checks, is not served", async (path, body) => {
    const response = await SELF.fetch(`${ORIGIN}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: ORIGIN, "cf-connecting-ip": newClientNetwork() },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(404);
    expect(await countRows("select count(*) as n from users")).toBe(0);
  });
});
