import type { Page } from "@playwright/test";
import { otherAddressLink, newAccount, uniqueEmail } from "./accounts.ts";
import { expect, hasHorizontalScroll, test, toast } from "./fixtures.ts";

// Settings' 'Other e-mail addresses' (issue 32, decision 068): add one, open the link mailed to it
// from the dev mailbox, confirm, see it confirmed, remove it; with JavaScript and without.

/** Adds the address from Settings and opens the link mailed to it; left on the link's page. */
async function addAndOpenLink(page: Page, address: string) {
  await page.goto("/settings/addresses");
  const section = page.locator("#other-addresses");
  await expect(section.getByRole("heading", { name: "Other e-mail addresses" })).toBeVisible();
  await expect(section.getByText("No other addresses yet.")).toBeVisible();
  await section.getByLabel("Email address").fill(address);
  await section.getByRole("button", { name: "Add address" }).click();
  await expect(toast(page, "Check your inbox")).toContainText(address);
  const list = page.getByRole("list", { name: "Your other e-mail addresses" });
  await expect(list).toContainText(address);
  await expect(list).toContainText("Waiting for confirmation");

  await page.goto(await otherAddressLink(page.request, address));
  await expect(page).toHaveTitle(/Confirm email address/);
  await expect(page.getByRole("heading", { name: "Confirm your email address" })).toBeVisible();
  await expect(page.getByText(address)).toBeVisible();
}

async function confirmAndRemove(page: Page, address: string) {
  await page.getByRole("button", { name: "Confirm address" }).click();
  await expect(page).toHaveURL(/\/settings\/addresses$/);
  await expect(toast(page, "Address confirmed")).toBeVisible();
  const list = page.getByRole("list", { name: "Your other e-mail addresses" });
  await expect(list.getByText("Confirmed", { exact: true })).toBeVisible();
  await expect(list.getByRole("button", { name: `Resend link to ${address}` })).toHaveCount(0);

  await list
    .getByRole("link", { name: `Remove ${address}` })
    .or(list.getByRole("button", { name: `Remove ${address}` }))
    .click();
  await page.getByRole("button", { name: "Remove address" }).click();
  await expect(toast(page, "Address removed")).toContainText(address);
  await expect(page.getByText("No other addresses yet.")).toBeVisible();
}

test.describe("other e-mail addresses", () => {
  test("add one, confirm it from the mailed link, remove it", async ({ page }) => {
    await newAccount(page);
    const address = uniqueEmail("alumni");
    await addAndOpenLink(page, address);
    await confirmAndRemove(page, address);
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the same, with plain forms, and an address refused keeps what was typed", async ({ page }) => {
      const { email } = await newAccount(page);
      await page.goto("/settings/addresses");
      const section = page.locator("#other-addresses");
      await section.getByLabel("Email address").fill(email);
      await section.getByRole("button", { name: "Add address" }).click();
      await expect(section.getByText("This is already your sign-in address.")).toBeVisible();
      await expect(section.getByLabel("Email address")).toHaveValue(email);

      const address = uniqueEmail("former-employer");
      await addAndOpenLink(page, address);
      await confirmAndRemove(page, address);
    });
  });

  test("fits a 375px phone", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await newAccount(page);
    await addAndOpenLink(
      page,
      `a-rather-long-address-${crypto.randomUUID().slice(0, 8)}@university-of-somewhere.example`,
    );
    expect(await hasHorizontalScroll(page)).toBe(false);
    await page.goto("/settings/addresses");
    expect(await hasHorizontalScroll(page)).toBe(false);
  });
});
