import { expect, hasHorizontalScroll, test } from "./fixtures.ts";
import type { Page } from "@playwright/test";

async function expectEverySection(page: Page) {
  const account = page.getByRole("navigation", { name: "Account" });
  await expect(page.getByRole("link", { name: "Career Passport" })).toBeVisible();
  await expect(page.getByText("Beta", { exact: true })).toBeVisible();
  await expect(account.getByRole("link", { name: "Sign In" })).toHaveAttribute("href", "/auth");
  await expect(account.getByRole("link", { name: "Get Started" })).toHaveAttribute("href", "/auth?mode=signup");

  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: "Start Your Passport" })).toHaveAttribute("href", "/auth?mode=signup");
  await expect(page.getByRole("link", { name: "See How It Works" })).toBeVisible();

  for (const feature of ["Lifetime Passport", "Cross-Company History", "Own Your Data", "No More Paper CVs"]) {
    await expect(page.getByRole("heading", { name: feature })).toBeVisible();
  }

  const demo = page.locator("#demo");
  await expect(demo.getByRole("heading", { name: "Alex Morgan" })).toBeAttached();
  await expect(demo.getByRole("article")).toHaveCount(8);
  await expect(demo.getByText("Ready to build your professional story?")).toBeAttached();

  await expect(page.getByRole("link", { name: "Create Your Passport" }).last()).toHaveAttribute(
    "href",
    "/auth?mode=signup",
  );
  const footer = page.getByRole("contentinfo");
  await expect(footer).toContainText("© 2025");
  await expect(footer.getByRole("link", { name: "Terms & Conditions" })).toHaveAttribute("href", "/terms");
  await expect(footer.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("href", "/privacy");
  await expect(page.getByRole("region", { name: "Cookie consent" })).toBeVisible();
}

test.describe("landing page", () => {
  test("shows every section", async ({ page }) => {
    await page.goto("/");
    await expect(page).toHaveTitle(/Career Passport/);
    await expectEverySection(page);
  });

  test("See How It Works scrolls to the demo", async ({ page }) => {
    await page.goto("/");
    const demoHeading = page.getByRole("heading", { name: "See a passport in action" });
    await expect(demoHeading).not.toBeInViewport();
    await page.getByRole("link", { name: "See How It Works" }).click();
    await expect(demoHeading).toBeInViewport();
  });

  test("the demo reveals the rest of the timeline with View More, staying at the demo", async ({ page }) => {
    // The landing page ships no script: View More is a plain link back to the demo, expanded.
    await page.goto("/");
    const demo = page.locator("#demo");
    await demo.getByRole("link", { name: "View More Achievements" }).click();
    await expect(page).toHaveURL("/?demo=all#demo");
    await expect(demo.getByRole("article")).toHaveCount(10);
    await expect(demo.getByRole("link", { name: "View More Achievements" })).toHaveCount(0);
    await expect(page.getByRole("heading", { name: "See a passport in action" })).toBeInViewport();
  });

  test("the demo avatar opens the profile dialog and Escape returns focus", async ({ page }) => {
    await page.goto("/");
    const avatar = page.getByRole("button", { name: "Open profile of Alex Morgan" });
    await avatar.click();
    const dialog = page.getByRole("dialog", { name: "Alex Morgan" });
    await expect(dialog).toContainText("No introduction video yet");
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(avatar).toBeFocused();
  });

  test("the cookie banner hides after Accept and stays hidden after reload", async ({ page }) => {
    await page.goto("/");
    const banner = page.getByRole("region", { name: "Cookie consent" });
    // The choice is saved in the background; wait for it before reloading.
    const saved = page.waitForResponse(
      (response) => response.url().includes("/preferences") && response.request().method() === "POST",
    );
    await banner.getByRole("button", { name: "Accept" }).click();
    await expect(banner).toBeHidden();
    await saved;
    await page.reload();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(banner).toHaveCount(0);
    const cookies = await page.context().cookies();
    expect(cookies.find((cookie) => cookie.name === "cookie-consent")).toBeTruthy();
  });

  test("has no horizontal scroll on a 375px phone", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    for (const path of ["/", "/terms", "/privacy"]) {
      await page.goto(path);
      expect(await hasHorizontalScroll(page), path).toBe(false);
    }
  });
});

test.describe("landing page without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("renders every section", async ({ page }) => {
    await page.goto("/");
    await expectEverySection(page);
  });

  test("See How It Works, View More and the cookie banner still work", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("link", { name: "See How It Works" }).click();
    await expect(page.getByRole("heading", { name: "See a passport in action" })).toBeInViewport();

    await page.locator("#demo").getByRole("link", { name: "View More Achievements" }).click();
    await expect(page.locator("#demo").getByRole("article")).toHaveCount(10);

    await page.getByRole("region", { name: "Cookie consent" }).getByRole("button", { name: "Decline" }).click();
    await expect(page.getByRole("region", { name: "Cookie consent" })).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole("region", { name: "Cookie consent" })).toHaveCount(0);
  });
});
