import type { Page } from "@playwright/test";
import { PASSWORD, newAccount } from "./accounts.ts";
import { expect, test, toast } from "./fixtures.ts";
import { codeFrom, confirmTwoFactor, startTwoFactor } from "./two-factor-steps.ts";

// Two-factor sign-in (issue 30, decision 060) as a person does it, with and without JavaScript:
// turn it on reading the key from the page (the code computed with otpauth), sign in with a code,
// then with a recovery code.

async function signInWithPassword(page: Page, email: string) {
  await page.context().clearCookies();
  await page.goto("/auth");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page).toHaveURL("/auth/two-factor");
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`two-factor ${javaScriptEnabled ? "with" : "without"} JavaScript`, () => {
    test.use({ javaScriptEnabled });

    test("turn on, then sign in with a code and with a recovery code", async ({ page }) => {
      const { email } = await newAccount(page);
      const key = await startTwoFactor(page);
      await confirmTwoFactor(page, key);
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
