import { PASSWORD, newAccount } from "./accounts.ts";
import { expect, test, toast } from "./fixtures.ts";
import { addPasskey, virtualAuthenticator, withoutPasskeyAutofill } from "./passkey-steps.ts";

// Passkeys (issue 30, decision 061) in a real browser: Chromium's own virtual authenticator (the
// DevTools protocol's WebAuthn domain) creates and uses the passkey, and the server's verifier checks
// what it answers. Add one in Settings, sign out, sign in with it (the button, and the e-mail
// field's autofill); rename it; remove it.

test("add a passkey, sign out, sign in with it, rename it and remove it", async ({ page }) => {
  await withoutPasskeyAutofill(page);
  await virtualAuthenticator(page);
  const { email } = await newAccount(page);
  await addPasskey(page, "Test laptop");
  await expect(toast(page, "Passkey added")).toBeVisible();
  const list = page.getByRole("list", { name: "Your passkeys" });
  await expect(list.getByRole("listitem")).toContainText("Test laptop");
  await expect(list.getByText("Not used yet")).toBeVisible();

  await page.context().clearCookies();
  await page.goto("/auth");
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page).toHaveURL("/dashboard");
  await page.goto("/settings/security");
  await expect(page.getByRole("complementary", { name: "Sidebar" }).getByText(email)).toBeVisible();
  await expect(list.getByText("Last used Just now")).toBeVisible();

  await list.getByText("Rename").click();
  await list.getByLabel("Name").fill("Work laptop");
  await list.getByRole("button", { name: "Save name" }).click();
  await expect(toast(page, "Passkey renamed")).toBeVisible();
  await expect(list.getByRole("listitem")).toContainText("Work laptop");

  await list.getByRole("button", { name: "Remove" }).click();
  const dialog = page.getByRole("alertdialog");
  await dialog.getByLabel("Current Password").fill(PASSWORD);
  await dialog.getByRole("button", { name: "Remove passkey" }).click();
  await expect(toast(page, "Passkey removed")).toBeVisible();
  await expect(page.getByText("No passkeys yet.")).toBeVisible();

  // The authenticator still holds it, but the site no longer knows it.
  await page.context().clearCookies();
  await page.goto("/auth");
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page.getByRole("alert")).toContainText("not registered with your account any more");
});

test("the sign-in page offers the passkey in the e-mail field's autofill", async ({ page }) => {
  await virtualAuthenticator(page);
  const { email } = await newAccount(page);
  await addPasskey(page, "Autofill laptop");
  await expect(toast(page, "Passkey added")).toBeVisible();
  await page.context().clearCookies();
  await page.goto("/auth");
  await expect(page.getByLabel("Email")).toHaveAttribute("autocomplete", "email webauthn");
  // The virtual authenticator answers the autofill's request as a person picking the passkey would.
  await expect(page).toHaveURL("/dashboard");
  await page.goto("/settings");
  await expect(page.getByRole("complementary", { name: "Sidebar" }).getByText(email)).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the passkey forms say what they need", async ({ page }) => {
    await newAccount(page);
    await page.goto("/settings/security");
    const card = page.locator("#passkeys");
    await card.getByLabel("Current Password").fill(PASSWORD);
    await card.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByText("Creating a passkey needs JavaScript")).toBeVisible();

    await page.context().clearCookies();
    await page.goto("/auth");
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await expect(page.getByRole("alert")).toContainText("Signing in with a passkey needs JavaScript");
  });
});
