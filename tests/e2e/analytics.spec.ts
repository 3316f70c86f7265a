import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";

// The seeded demo organisation (db/seed.ts) has a recognition history dated back from the day
// the seed ran: 1 achievement in the last 7 days, 3 in 30, 5 in 90 and 6 in 365. Nothing else in
// the suite signs in as its admin, so these figures hold.
const ADMIN = { email: "admin@example.com", password: "passport-demo" };

async function signInAsDemoAdmin(page: Page) {
  const response = await page.request.post("/auth", { form: { intent: "signin", ...ADMIN } });
  expect(response.ok()).toBe(true);
}

const recognition = (page: Page) => page.getByRole("region", { name: "Recognition", exact: true });
const total = (range: number, count: number) =>
  new RegExp(`Achievements given in the last ${range} days: ${count}(?!\\d)`);

test.describe("recognition analytics", () => {
  test("an admin switches ranges and sees the figures change; the range is in the URL", async ({ page }) => {
    await signInAsDemoAdmin(page);
    await page.goto("/dashboard");
    const ranges = page.getByRole("navigation", { name: "Analytics range" });
    await expect(ranges.getByRole("link", { name: "Last 30 days" })).toHaveAttribute("aria-current", "page");
    await expect(recognition(page)).toContainText(total(30, 3));

    await ranges.getByRole("link", { name: "Last 7 days" }).click();
    await expect(page).toHaveURL(/\?range=7$/);
    await expect(recognition(page)).toContainText(total(7, 1));
    await expect(recognition(page).getByRole("img", { name: /per day, last 7 days/ })).toBeVisible();
    await recognition(page).getByText("Show as table").click();
    await expect(recognition(page).getByRole("table").getByRole("row")).toHaveCount(1 + 7);

    await ranges.getByRole("link", { name: "Last 90 days" }).click();
    await expect(recognition(page)).toContainText(total(90, 5));
    await expect(recognition(page).getByRole("img", { name: /per week, last 90 days/ })).toBeVisible();

    await ranges.getByRole("link", { name: "Last 365 days" }).click();
    await expect(recognition(page)).toContainText(total(365, 6));
    await expect(ranges.getByRole("link", { name: "Last 365 days" })).toHaveAttribute("aria-current", "page");

    // The other figures: who waits longest, who gives most, and six months of bars.
    const needs = page.getByRole("region", { name: "Needs recognition" });
    // Priya joined 400 days ago and was never recognised; Alex's last was over a year ago.
    await expect(needs.getByRole("listitem").first()).toContainText(
      /Priya Shah\s*Never recognised · joined 400 days ago/,
    );
    await expect(needs.getByRole("listitem").nth(1)).toContainText(/Alex Morgan\s*Last recognised \d+ days ago/);
    await expect(page.getByRole("region", { name: "Top recognisers" }).getByRole("listitem")).toHaveText([
      /Priya Shah\s*6 achievements/,
    ]);
    const trend = page.getByRole("region", { name: "Recognition trend" });
    await expect(trend.getByRole("img", { name: /per month, last 6 months/ }).locator("rect")).toHaveCount(6);

    // A shared link opens on the same range.
    await page.goto("/dashboard?range=90");
    await expect(recognition(page)).toContainText(total(90, 5));
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the range links and the table still work", async ({ page }) => {
      await signInAsDemoAdmin(page);
      await page.goto("/dashboard");
      await expect(recognition(page)).toContainText(total(30, 3));
      const ranges = page.getByRole("navigation", { name: "Analytics range" });
      await ranges.getByRole("link", { name: "Last 7 days" }).click();
      await expect(page).toHaveURL(/\?range=7$/);
      await expect(recognition(page)).toContainText(total(7, 1));
      await ranges.getByRole("link", { name: "Last 90 days" }).click();
      await expect(recognition(page)).toContainText(total(90, 5));
      await recognition(page).getByText("Show as table").click();
      await expect(recognition(page).getByRole("table").getByRole("row")).toHaveCount(1 + 13);
    });
  });
});
