import type { Page } from "@playwright/test";
import { PASSWORD, signUpAndConfirm } from "./accounts.ts";
import { expect, test, toast } from "./fixtures.ts";

// Passkeys (issue 30, decision 061) in a real browser: Chromium's own virtual authenticator (the
// DevTools protocol's WebAuthn domain) creates and uses the passkey, and the server's verifier checks
// what it answers. Add one in Settings, sign out, sign in with it; rename it; remove it.

/**
 * An authenticator that keeps passkeys and verifies the person (as a fingerprint would). One that
 * cannot verify the person gets no passkey from Chromium at all (a discoverable passkey needs it),
 * so the server's refusal of such a passkey is tested in tests/workers/passkeys.test.ts.
 */
async function virtualAuthenticator(page: Page) {
  const session = await page.context().newCDPSession(page);
  await session.send("WebAuthn.enable");
  await session.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      ctap2Version: "ctap2_1",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

async function addPasskey(page: Page, name: string) {
  await page.goto("/settings");
  const card = page.locator("#passkeys");
  await card.getByLabel("Current Password").fill(PASSWORD);
  await card.getByLabel("Name (optional)").fill(name);
  await card.getByRole("button", { name: "Continue" }).click();
  await card.getByRole("button", { name: "Create passkey" }).click();
}

test("add a passkey, sign out, sign in with it, rename it and remove it", async ({ page }) => {
  await virtualAuthenticator(page);
  const { email } = await signUpAndConfirm(page);
  await addPasskey(page, "Test laptop");
  await expect(toast(page, "Passkey added")).toBeVisible();
  const list = page.getByRole("list", { name: "Your passkeys" });
  await expect(list.getByRole("listitem")).toContainText("Test laptop");
  await expect(list.getByText("Not used yet")).toBeVisible();

  await page.context().clearCookies();
  await page.goto("/auth");
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page).toHaveURL("/dashboard");
  await page.goto("/settings");
  await expect(page.getByText(email)).toBeVisible();
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

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the passkey forms say what they need", async ({ page }) => {
    await signUpAndConfirm(page);
    await page.goto("/settings");
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
