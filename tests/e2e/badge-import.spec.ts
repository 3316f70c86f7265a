import AxeBuilder from "@axe-core/playwright";
import { outsideIssuer } from "../../scripts/badges/outside-issuer.mjs";
import { newAccount } from "./accounts.ts";
import { linkedInExport } from "./linkedin-export.ts";
import { expect, test, toast } from "./fixtures.ts";

// Issue 32: a new member starts from their LinkedIn export, then uploads a baked badge (an Open
// Badges 3.0 credential signed by another issuer's libraries, baked into a PNG), sees each check,
// adds it, and the public passport shows both: the history, and the badge as an imported
// credential whose checks passed, its issuer's self-chosen name said to be unverified (issue 43).

// The badge's image is on the issuer's host, which this machine cannot reach.
test.use({ allowedConsoleErrors: [/Failed to load resource: net::ERR_/] });

test("a new member imports a LinkedIn export and a badge, and the public passport shows them", async ({ page }) => {
  test.slow();
  const { email } = await newAccount(page, { name: "Ivo Importer" });
  await page.goto("/passport/import-history");
  await page.getByLabel("LinkedIn export or JSON Resume").setInputFiles(linkedInExport());
  await page.getByRole("button", { name: "Read file" }).click();
  await page.getByRole("button", { name: /^Add \d+ achievements$/ }).click();
  await expect(toast(page, "Achievements added")).toBeVisible();

  const issuer = await outsideIssuer();
  const { credential } = await issuer.credential({ email, name: "Robotics Fundamentals", achievementType: "Course" });
  const png = Buffer.from(issuer.bakePng({ text: JSON.stringify(credential), compressed: true }), "base64");

  await page.goto("/passport");
  await page.getByRole("link", { name: "Import", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Import a badge or credential" })).toBeVisible();
  await expect(page).toHaveTitle(/Import a badge or credential/);
  await page.getByLabel("Badge file").setInputFiles({ name: "robotics.png", mimeType: "image/png", buffer: png });
  await page.getByRole("button", { name: "Check" }).click();

  const result = page.getByRole("status").filter({ hasText: "Checks:" });
  await expect(result.getByText("Every check passed.")).toBeVisible();
  await expect(result.getByText(`Issued to your address ${email}.`)).toBeVisible();
  await expect(result.getByText("Read from the issuer's did:key itself.")).toBeVisible();
  // Before anything is added, the page says what the passport will: the issuer chose its name.
  await expect(page.getByText("Issuer name not verified: the issuer chose this name itself")).toBeVisible();
  const { violations } = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  expect(violations.map(({ id }) => id)).toEqual([]);
  // On a phone the checks fit the screen.
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole("button", { name: "Add to passport" }).click();

  await expect(page).toHaveURL(/\/passport$/);
  await expect(toast(page, "Credential added")).toBeVisible();
  const own = page.getByRole("list", { name: "Your achievements" }).getByRole("article");
  await expect(own.getByRole("heading", { name: "Robotics Fundamentals" })).toBeVisible();
  await expect(own.getByText("Imported credential")).toBeVisible();
  await expect(page.getByRole("link", { name: /Download the original file/ })).toBeVisible();

  await page.getByRole("link", { name: "View public passport" }).click();
  const entry = page.getByRole("article").filter({ hasText: "Robotics Fundamentals" });
  await expect(entry).toBeVisible();
  await expect(entry.getByText("Imported credential")).toBeVisible();
  await expect(entry.getByText("Example Badge Issuer")).toBeVisible();
  await expect(entry.getByText("Issuer: Issuer not identified")).toBeVisible();
  // Issue 43: a did:key issuer named itself; the card says so, and neither the eye nor a screen
  // reader is told it is verified.
  await expect(entry.getByText("Issuer name not verified: the issuer chose this name itself")).toBeVisible();
  await expect(entry.getByRole("img", { name: "Verified credential" })).toHaveCount(0);
  await expect(entry.getByText(/verified credential/i)).toHaveCount(0);
  // The history from LinkedIn beside it, as the person's own entries.
  await expect(page.getByRole("article").filter({ hasText: "Head of Platform" })).toBeVisible();

  // The card reads on a 375px phone, light and dark, and passes axe.
  await page.setViewportSize({ width: 375, height: 800 });
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await expect(entry.getByText("Issuer name not verified: the issuer chose this name itself")).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    const scan = await new AxeBuilder({ page })
      .include("article")
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
      .analyze();
    expect(scan.violations.map(({ id }) => id)).toEqual([]);
  }
});
