import * as OTPAuth from "otpauth";
import type { Page } from "@playwright/test";
import { PASSWORD, signUpAndConfirm } from "./accounts.ts";
import { expect, test, toast } from "./fixtures.ts";

// Two-factor sign-in (issue 30, decision 060) as a person does it, with and without JavaScript:
// turn it on reading the key from the page (the code computed with otpauth), sign in with a code,
// then with a recovery code.

/** A code from an app holding `key`, `steps` steps of 30 s from now (the server accepts ±1). */
const codeFrom = (key: string, steps: number) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(key), digits: 6, period: 30 }).generate({
    timestamp: Date.now() + steps * 30_000,
  });

async function signInWithPassword(page: Page, email: string) {
  await page.context().clearCookies();
  await page.goto("/auth");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL("/auth/two-factor");
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`two-factor ${javaScriptEnabled ? "with" : "without"} JavaScript`, () => {
    test.use({ javaScriptEnabled });

    test("turn on, then sign in with a code and with a recovery code", async ({ page }) => {
      const { email } = await signUpAndConfirm(page);
      await page.goto("/settings");
      const card = page.locator("#two-factor");
      await card.getByLabel("Current Password").fill(PASSWORD);
      await card.getByRole("button", { name: "Turn on" }).click();
      await expect(page.getByRole("img", { name: "QR code to scan with your authenticator app" })).toBeVisible();
      const key = (await page.getByTestId("two-factor-key").textContent())!.replace(/\s/g, "");
      await card.getByLabel("Code from your app").fill(codeFrom(key, 0));
      await card.getByRole("button", { name: "Confirm and turn on" }).click();
      await expect(toast(page, "Two-factor authentication is on")).toBeVisible();
      const codes = await page.getByTestId("recovery-codes").getByRole("listitem").allTextContents();
      expect(codes).toHaveLength(10);
      await expect(page.getByRole("link", { name: "Download codes" })).toBeVisible();

      await signInWithPassword(page, email);
      await page.getByLabel("Code", { exact: true }).fill(codeFrom(key, 1));
      await page.getByRole("button", { name: "Verify" }).click();
      await expect(page).toHaveURL("/dashboard");

      await signInWithPassword(page, email);
      await page.getByRole("link", { name: "Use a recovery code instead" }).click();
      await page.getByLabel("Recovery code").fill(codes[0]!);
      await page.getByRole("button", { name: "Verify" }).click();
      await expect(page).toHaveURL("/dashboard");
    });
  });
}
