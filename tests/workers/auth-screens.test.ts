import { describe, expect, it } from "vitest";
import { signUpAndConfirm, get, PASSWORD, postForm } from "./helpers.ts";

// /auth is one URL with a screen per ?mode= (app/routes/auth/): the spec's links and the
// e-mails' links keep working, and a form's intent picks its action whatever ?mode= it was
// posted to (issue 16).

describe("the screens of /auth", () => {
  it.each([
    ["/auth", "Sign in · Career Passport", "Welcome back. Sign in to your passport."],
    ["/auth?mode=signup", "Create your account · Career Passport", "What kind of account do you need?"],
    ["/auth?mode=personal", "Create your passport · Career Passport", "Start your lifelong record of achievements."],
    [
      "/auth?mode=organisation",
      "Create an organisation account · Career Passport",
      "Recognise your members with achievements they keep for life.",
    ],
    [
      "/auth?mode=verify-email&email=ada%40example.com",
      "Check your email · Career Passport",
      "We sent a confirmation link to ada@example.com.",
    ],
    ["/auth?mode=no-such-screen", "Sign in · Career Passport", "Welcome back. Sign in to your passport."],
  ])("%s shows its screen", async (path, title, text) => {
    const response = await get(path);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(`<title>${title}</title>`);
    expect(html).toContain(text);
  });

  it("keeps where the visitor was going in the links between screens", async () => {
    const html = await (await get("/auth?mode=signup&redirectTo=%2Fjoin%2Fabc")).text();
    expect(html).toContain('href="/auth?mode=personal&amp;redirectTo=%2Fjoin%2Fabc"');
    expect(html).toContain('href="/auth?mode=organisation&amp;redirectTo=%2Fjoin%2Fabc"');
    expect(html).toContain('href="/auth?redirectTo=%2Fjoin%2Fabc"');
  });

  it("runs the action the form names, whichever screen it was posted to", async () => {
    const person = await signUpAndConfirm();
    const signedIn = await postForm("/auth?mode=personal", {
      intent: "signin",
      email: person.email,
      password: PASSWORD,
    });
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("Location")).toBe("/dashboard");
  });

  it.each(["", "nonsense", "constructor", "__proto__", "toString"])(
    "refuses an unknown intent %j with 400 and changes nothing",
    async (intent) => {
      const response = await postForm("/auth", { intent, email: "ada@example.com", password: PASSWORD });
      expect(response.status).toBe(400);
    },
  );
});
