import { expect, hasHorizontalScroll, test } from "./fixtures.ts";

test.describe("legal pages", () => {
  test("terms state the commercial and legal facts, and Back returns", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("contentinfo").getByRole("link", { name: "Terms & Conditions" }).click();
    await expect(page).toHaveURL("/terms");
    await expect(page).toHaveTitle(/Terms & Conditions/);
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { name: "Terms & Conditions", level: 1 })).toBeVisible();
    await expect(main).toContainText("£2.99 per user per month");
    await expect(main).toContainText("pilot terms");
    // What the product does (the subscription ends when cancelled, not at the period's end).
    await expect(main).toContainText("it ends at once, no further payment is taken");
    await expect(main).toContainText("at least 16 years old");
    await expect(main).toContainText("laws of England and Wales");
    await expect(main).toContainText("up to 12 months after deletion");
    await main.getByRole("link", { name: "Back" }).click();
    await expect(page).toHaveURL("/");
  });

  test("privacy states retention, age and law, and Back works when opened directly", async ({ page }) => {
    await page.goto("/privacy");
    await expect(page).toHaveTitle(/Privacy Policy/);
    const main = page.getByRole("main");
    await expect(main).toContainText("up to 12 months after deletion");
    await expect(main).toContainText("aged 16 and over");
    await expect(main).toContainText("England and Wales");
    await main.getByRole("link", { name: "Back" }).click();
    await expect(page).toHaveURL("/");
  });
});

test.describe("404", () => {
  test.use({ allowedConsoleErrors: [/status of 404/] });

  test("an unknown route shows the 404 page with status 404", async ({ page }) => {
    const response = await page.goto("/this/route/does-not-exist");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
    await expect(page).toHaveTitle(/Page not found/);
    await page.getByRole("link", { name: "Return to Home" }).click();
    await expect(page).toHaveURL("/");
  });

  test("the 404 page fits a 375px phone", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto("/missing-page");
    await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
    expect(await hasHorizontalScroll(page)).toBe(false);
  });
});
