import { describe, expect, it } from "vitest";
import {
  confirmationToken,
  cookiesFrom,
  countRows,
  get,
  newClientIp,
  PASSWORD,
  postForm,
  signUp,
  signUpCookie,
  uniqueEmail,
} from "./helpers.ts";

// Confirmation from another browser (issue 30, decision 058): the confirmation link opened in a
// browser that did not sign up asks for the account's password before it confirms, so nobody
// confirms an account whose password they do not know. The browser that signed up (its signed
// cookie names the account) confirms at once, as before.

const confirmed = (email: string) =>
  countRows("select count(*) as n from users where email = ? and email_verified = 1", email.toLowerCase());
const sessionsOf = (email: string) =>
  countRows(
    "select count(*) as n from sessions s join users u on u.id = s.user_id where u.email = ?",
    email.toLowerCase(),
  );
const setsSession = (response: Response) =>
  response.headers
    .getSetCookie()
    .some((line) => line.startsWith("passport.session_token=") && !/Max-Age=0/i.test(line));

async function signedUp() {
  const email = uniqueEmail("elsewhere");
  const response = await signUp({ name: "Ellie Elsewhere", email });
  return { email, token: (await confirmationToken(email))!, cookie: signUpCookie(response) };
}

describe("a confirmation link opened in another browser", () => {
  it("shows a password form instead of confirming by itself", async () => {
    const { email, token } = await signedUp();
    const page = await (await get(`/auth/confirm?token=${encodeURIComponent(token)}`)).text();
    expect(page).toContain("Enter your password");
    expect(page).toMatch(
      /<input[^>]*name="password"[^>]*type="password"|<input[^>]*type="password"[^>]*name="password"/,
    );
    expect(page).not.toContain("Verifying your email");
    expect(await confirmed(email)).toBe(0);
  });

  it("confirms nothing when posted without a password: it asks for it", async () => {
    const { email, token } = await signedUp();
    const response = await postForm("/auth/confirm", { token });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Enter your password");
    expect(setsSession(response)).toBe(false);
    expect(await confirmed(email)).toBe(0);
  });

  it("confirms nothing with a wrong password, and says so under the field", async () => {
    const { email, token } = await signedUp();
    const response = await postForm("/auth/confirm", { token, password: "not-the-password-1" });
    expect(response.status).toBe(400);
    const page = await response.text();
    expect(page).toContain("Password is incorrect");
    expect(page).toContain('aria-invalid="true"');
    expect(setsSession(response)).toBe(false);
    expect(await confirmed(email)).toBe(0);
    expect(await sessionsOf(email)).toBe(0);
  });

  it("confirms with the right password, and signs that browser in", async () => {
    const { email, token } = await signedUp();
    const response = await postForm("/auth/confirm", { token, password: PASSWORD });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Email confirmed");
    expect(await confirmed(email)).toBe(1);
    expect(setsSession(response)).toBe(true);
    expect((await get("/dashboard", cookiesFrom(response))).status).toBe(200);
  });

  it("counts password attempts against the sign-in limit: the 11th in a minute is refused, even the right one", async () => {
    const { email, token } = await signedUp();
    const ip = newClientIp();
    for (let attempt = 0; attempt < 10; attempt++) {
      expect((await postForm("/auth/confirm", { token, password: `wrong-password-${attempt}` }, { ip })).status).toBe(
        400,
      );
    }
    const limited = await postForm("/auth/confirm", { token, password: PASSWORD }, { ip });
    expect(limited.status).toBe(429);
    expect(await limited.text()).toContain("Too many attempts. Please wait a minute and try again.");
    expect(await confirmed(email)).toBe(0);
  });

  it("of an address already confirmed asks nothing, confirms nothing more and signs nobody in", async () => {
    const { email, token, cookie } = await signedUp();
    expect((await postForm("/auth/confirm", { token }, { cookie })).status).toBe(200);
    const sessions = await sessionsOf(email);

    const page = await get(`/auth/confirm?token=${encodeURIComponent(token)}`);
    expect(await page.text()).not.toContain("Enter your password");
    const response = await postForm("/auth/confirm", { token });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Sign in to continue");
    expect(setsSession(response)).toBe(false);
    expect(await sessionsOf(email)).toBe(sessions);
  });

  it("with a forged token is refused before any password is asked for", async () => {
    const { token } = await signedUp();
    const forged = `${token.slice(0, -3)}AAA`;
    const page = await (await get(`/auth/confirm?token=${encodeURIComponent(forged)}`)).text();
    expect(page).not.toContain("Enter your password");
    const response = await postForm("/auth/confirm", { token: forged, password: PASSWORD });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Verification failed");
  });
});

describe("the browser that signed up", () => {
  it("confirms at once, without the password, and is signed in", async () => {
    const { email, token, cookie } = await signedUp();
    const page = await (await get(`/auth/confirm?token=${encodeURIComponent(token)}`, cookie)).text();
    expect(page).toContain("Verifying your email");
    expect(page).not.toContain("Enter your password");
    const response = await postForm("/auth/confirm", { token }, { cookie });
    expect(response.status).toBe(200);
    expect(setsSession(response)).toBe(true);
    expect(await confirmed(email)).toBe(1);
  });
});
