import type { Page } from "@playwright/test";
import { createOrganisation, newAccount, uniqueName } from "./accounts.ts";
import { expect, test, toast } from "./fixtures.ts";

async function organisationWithMember(admin: Page, member: Page) {
  const { invitePath } = await createOrganisation(admin, { adminName: "Sol Subscriber", name: uniqueName("Paying") });
  await newAccount(member, { name: "Max Member" });
  // Joining is tested elsewhere; post the invite as its form does.
  const { pathname, searchParams } = new URL(invitePath, "http://localhost");
  expect((await member.request.post(pathname, { form: { code: searchParams.get("code")! } })).ok()).toBe(true);
  await admin.reload();
}

const memberRow = (page: Page) =>
  page.getByRole("list", { name: "Team members" }).getByRole("listitem").filter({ hasText: "Max Member" });

test.describe("member subscriptions", () => {
  test("an admin subscribes a member through the local simulated checkout, then cancels", async ({
    page,
    secondPage,
  }) => {
    await organisationWithMember(page, secondPage);
    const row = memberRow(page);
    await expect(row.getByText("Not Subscribed")).toBeVisible();

    // Checkout opens in a new tab, with a toast here.
    const [checkout] = await Promise.all([
      page.waitForEvent("popup"),
      row.getByRole("button", { name: /^Subscribe Max Member/ }).click(),
    ]);
    await expect(toast(page, "Opening checkout")).toBeVisible();
    await expect(checkout.getByRole("heading", { name: "Simulated checkout" })).toBeVisible();
    await expect(checkout.getByText("£2.99 per month")).toBeVisible();
    await checkout.getByRole("button", { name: "Complete payment" }).click();
    await expect(toast(checkout, "Subscription active")).toBeVisible();
    await expect(memberRow(checkout).getByText("Subscribed", { exact: true })).toBeVisible();

    // Back in the first tab, the list reads again and shows the badge.
    await page.bringToFront();
    await expect(row.getByText("Subscribed", { exact: true })).toBeVisible();

    await row.getByRole("button", { name: "Cancel subscription of Max Member" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Cancel Subscription" }).click();
    await expect(toast(page, "Subscription cancelled")).toBeVisible();
    await expect(row.getByText("Not Subscribed")).toBeVisible();
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("Subscribe still opens the simulated checkout in a new tab", async ({ page, secondPage }) => {
      await organisationWithMember(page, secondPage);
      const [checkout] = await Promise.all([
        page.waitForEvent("popup"),
        memberRow(page)
          .getByRole("button", { name: /^Subscribe Max Member/ })
          .click(),
      ]);
      await checkout.getByRole("button", { name: "Complete payment" }).click();
      await expect(memberRow(checkout).getByText("Subscribed", { exact: true })).toBeVisible();
      await page.reload();
      await expect(memberRow(page).getByText("Subscribed", { exact: true })).toBeVisible();
    });
  });
});
