import type { Page } from "@playwright/test";
import { confirmationLink, PASSWORD, newAccount, uniqueEmail } from "./accounts.ts";
import { expect, test, toast } from "./fixtures.ts";

const DEMO = { email: "alex@example.com", password: "passport-demo" };

async function fillSignUp(page: Page, { name, email, password }: { name: string; email: string; password: string }) {
  await page.getByLabel("Full Name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
}

async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
}

test.describe("sign-up", () => {
  test("a person signs up, confirms through the mailbox and lands on the dashboard", async ({ page }) => {
    const email = uniqueEmail("person");
    await page.goto("/");
    await page.getByRole("link", { name: "Get Started" }).click();
    await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
    await page.getByRole("link", { name: /Personal/ }).click();
    await fillSignUp(page, { name: "Robin Hart", email, password: PASSWORD });
    await page.getByRole("button", { name: "Create Account" }).click();

    await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
    await page.getByRole("link", { name: "Back to sign in" }).click();
    await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();

    await page.goto(await confirmationLink(page.request, email));
    await expect(page.getByRole("heading", { name: "Email confirmed" })).toBeVisible();
    await expect(page).toHaveURL("/dashboard", { timeout: 5000 });
    await expect(page.getByRole("heading", { name: "Welcome, Robin Hart" })).toBeVisible();
    await expect(page.getByText("Personal Dashboard")).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Passport" })).toBeVisible();
  });

  test("an organisation signs up and its organisation exists after confirmation", async ({ page }) => {
    const email = uniqueEmail("org");
    await page.goto("/auth?mode=signup");
    await page.getByRole("link", { name: /Organisation/ }).click();
    await fillSignUp(page, { name: "Dana Wells", email, password: PASSWORD });
    await page.getByLabel("Organisation Name").fill("Wells Engineering");
    await page.getByLabel("Organisation Description (optional)").fill("Bridges and tunnels");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();

    await page.goto(await confirmationLink(page.request, email));
    await expect(toast(page, "Organisation created!")).toBeVisible();
    await expect(page).toHaveURL("/dashboard", { timeout: 5000 });
    // The creator is the organisation's admin, so the admin dashboard opens.
    await expect(page.getByRole("heading", { name: "Organisation Admin" })).toBeVisible();
    await expect(page.getByRole("main").getByText("Wells Engineering")).toBeVisible();
    // Organisation accounts have no Passport item.
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Passport" })).toHaveCount(0);
  });

  test("every field shows its own message and the toast shows the first", async ({ page }) => {
    await page.goto("/auth?mode=personal");
    await page.getByLabel("Email").fill("not-an-email");
    await page.getByLabel("Password").fill("123");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByText("Name is required").first()).toBeVisible();
    await expect(page.getByText("Invalid email address").first()).toBeVisible();
    await expect(page.getByText("Password must be at least 6 characters").first()).toBeVisible();
    await expect(toast(page, "Validation error")).toContainText("Name is required");
  });

  test("a common password passes the browser's check and is refused by the server under its field", async ({
    page,
  }) => {
    const email = uniqueEmail("common");
    await page.goto("/auth?mode=personal");
    await fillSignUp(page, { name: "Robin Hart", email, password: "iloveyou" });
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByLabel("Password")).toHaveAccessibleDescription(
      /^This password is too common\. Choose another\./,
    );
    await expect(toast(page, "Validation error")).toContainText("This password is too common. Choose another.");
    await expect(page.getByLabel("Full Name")).toHaveValue("Robin Hart");
    await expect(page.getByLabel("Email")).toHaveValue(email);
  });

  test("the confirmation page shows the error state for a bad link", async ({ page }) => {
    await page.goto("/auth/confirm?token=not-a-token");
    await expect(page.getByRole("heading", { name: "Verification failed" })).toBeVisible();
    await expect(
      page.getByText("There was an error verifying your email. The link may be invalid or expired."),
    ).toBeVisible();
    await page.getByRole("link", { name: "Back to sign in" }).click();
    await expect(page).toHaveURL("/auth");
  });
});

test.describe("sign-in", () => {
  test("signs in, reaches the dashboard, and signs out to the landing page", async ({ page }) => {
    await page.goto("/auth");
    await signIn(page, DEMO.email, DEMO.password);
    await expect(page).toHaveURL("/dashboard");
    await expect(page.getByRole("heading", { name: "Welcome, Alex Morgan" })).toBeVisible();
    await expect(page.getByText(`Signed in as ${DEMO.email}`).first()).toBeAttached();
    await page.getByRole("main").getByRole("button", { name: "Sign Out" }).click();
    await expect(page).toHaveURL("/");
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fdashboard/);
  });

  test("'Show password' shows what was typed, and hides it again", async ({ page }) => {
    await page.goto("/auth");
    const password = page.getByLabel("Password");
    await password.fill("a long passphrase");
    await page.getByRole("button", { name: "Show password" }).click();
    await expect(password).toHaveAttribute("type", "text");
    await page.getByRole("button", { name: "Hide password" }).click();
    await expect(password).toHaveAttribute("type", "password");
    await expect(password).toHaveValue("a long passphrase");
  });

  test("a wrong password shows 'Sign in failed' and keeps the email", async ({ page }) => {
    await page.goto("/auth");
    await signIn(page, DEMO.email, "wrong-password");
    await expect(toast(page, "Sign in failed")).toContainText("Invalid email or password");
    await expect(page.getByRole("alert")).toContainText("Invalid email or password");
    await expect(page.getByLabel("Email")).toHaveValue(DEMO.email);
  });

  test("a protected page sends a visitor to sign in and back again", async ({ page }) => {
    await page.goto("/settings");
    await expect(page).toHaveURL("/auth?redirectTo=%2Fsettings");
    await signIn(page, DEMO.email, DEMO.password);
    await expect(page).toHaveURL("/settings");
    await expect(page.getByRole("heading", { name: "Profile Settings" })).toBeVisible();
  });

  test("a signed-in visitor opening /auth goes to the dashboard", async ({ page }) => {
    await newAccount(page);
    await page.goto("/auth");
    await expect(page).toHaveURL("/dashboard");
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("sign-up keeps what was typed (except the password) and shows the errors", async ({ page }) => {
    await page.goto("/auth?mode=personal");
    await page.getByLabel("Full Name").fill("Kim Noor");
    await page.getByLabel("Email").fill("kim@@example");
    await page.getByLabel("Password").fill("12");
    await page.getByRole("button", { name: "Create Account" }).click();
    const form = page.locator("form").filter({ has: page.getByLabel("Full Name") });
    await expect(form.getByText("Invalid email address")).toBeVisible();
    await expect(form.getByText("Password must be at least 6 characters")).toBeVisible();
    // The toast names the first failing field, in the status region, without JavaScript too.
    await expect(page.getByRole("status")).toContainText("Validation error");
    await expect(page.getByRole("status")).toContainText("Invalid email address");
    await expect(page.getByLabel("Full Name")).toHaveValue("Kim Noor");
    await expect(page.getByLabel("Email")).toHaveValue("kim@@example");
    await expect(page.getByLabel("Password")).toHaveValue("");
  });

  test("sign-up, confirmation, sign-in and sign-out all work", async ({ page }) => {
    const email = uniqueEmail("nojs");
    await page.goto("/auth?mode=personal");
    await fillSignUp(page, { name: "Lee Park", email, password: PASSWORD });
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
    await expect(page.getByText("Check your email").first()).toBeVisible();

    await page.goto(await confirmationLink(page.request, email));
    await page.getByRole("button", { name: "Confirm my email" }).click();
    await expect(page.getByRole("heading", { name: "Email confirmed" })).toBeVisible();
    await expect(page).toHaveURL("/dashboard", { timeout: 5000 });

    await page.getByRole("main").getByRole("button", { name: "Sign Out" }).click();
    await expect(page).toHaveURL("/");

    await page.goto("/auth");
    await signIn(page, email, PASSWORD);
    await expect(page).toHaveURL("/dashboard");
    await expect(page.getByRole("heading", { name: "Welcome, Lee Park" })).toBeVisible();
  });

  test("a failed sign-in explains itself, under the toast's title 'Sign in failed'", async ({ page }) => {
    await page.goto("/auth");
    const email = uniqueEmail("nobody");
    await signIn(page, email, "whatever-1");
    await expect(page.getByRole("alert")).toContainText("Invalid email or password");
    // The action's toast renders in the page's status region without JavaScript too.
    await expect(page.getByRole("status")).toContainText("Sign in failed");
    await expect(page.getByRole("status")).toContainText("Invalid email or password");
    await expect(page.getByLabel("Email")).toHaveValue(email);
  });
});

for (const javaScriptEnabled of [true, false]) {
  test.describe(`confirmation in another browser ${javaScriptEnabled ? "with" : "without"} JavaScript`, () => {
    test.use({ javaScriptEnabled });

    test("asks for the password, refuses a wrong one, and confirms with the right one", async ({
      page,
      secondPage,
    }) => {
      const email = uniqueEmail("elsewhere");
      await page.goto("/auth?mode=personal");
      await fillSignUp(page, { name: "Eli Elsewhere", email, password: PASSWORD });
      await page.getByRole("button", { name: "Create Account" }).click();
      await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();

      // The link, opened on another device.
      await secondPage.goto(await confirmationLink(page.request, email));
      await expect(secondPage.getByRole("heading", { name: "Enter your password" })).toBeVisible();
      await secondPage.getByLabel("Password").fill("not-the-password");
      await secondPage.getByRole("button", { name: "Confirm my email" }).click();
      await expect(secondPage.getByText("Password is incorrect")).toBeVisible();
      await expect(secondPage.getByLabel("Password")).toHaveAttribute("aria-invalid", "true");

      await secondPage.getByLabel("Password").fill(PASSWORD);
      await secondPage.getByRole("button", { name: "Confirm my email" }).click();
      await expect(secondPage.getByRole("heading", { name: "Email confirmed" })).toBeVisible();
      await expect(secondPage).toHaveURL("/dashboard", { timeout: 5000 });
      await expect(secondPage.getByRole("heading", { name: "Welcome, Eli Elsewhere" })).toBeVisible();
    });
  });
}
