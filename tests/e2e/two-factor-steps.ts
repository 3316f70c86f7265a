import * as OTPAuth from "otpauth";
import type { Page } from "@playwright/test";
import { PASSWORD } from "./accounts.ts";
import { expect } from "./fixtures.ts";

/** A code from an app holding `key`, `steps` steps of 30 s from now (the server accepts ±1). */
export const codeFrom = (key: string, steps = 0) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(key), digits: 6, period: 30 }).generate({
    timestamp: Date.now() + steps * 30_000,
  });

/** Settings' 'Turn on' with the password, up to the QR code: the key the page shows, as an app reads it. */
export async function startTwoFactor(page: Page) {
  await page.goto("/settings/security");
  const card = page.locator("#two-factor");
  await card.getByLabel("Current Password").fill(PASSWORD);
  await card.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByRole("img", { name: "QR code to scan with your authenticator app" })).toBeVisible();
  return (await page.getByTestId("two-factor-key").textContent())!.replace(/\s/g, "");
}

/** Confirms a started setup with a current code from `key`. */
export async function confirmTwoFactor(page: Page, key: string) {
  const card = page.locator("#two-factor");
  await card.getByLabel("Code from your app").fill(codeFrom(key));
  await card.getByRole("button", { name: "Confirm and turn on" }).click();
}
