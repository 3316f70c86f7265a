import type { Page } from "@playwright/test";
import { newAccount } from "./accounts.ts";
import { linkedInExport } from "./linkedin-export.ts";
import { seedHistoryEntries } from "./seed-sql.ts";
import AxeBuilder from "@axe-core/playwright";
import { expect, hasHorizontalScroll, test, toast } from "./fixtures.ts";

// Issue 32: a new member starts their passport from LinkedIn's data export; and a public
// passport of up to 50 entries prints every one of them.

/** The public passport's id, from the own passport's link to it. */
async function passportIdOf(page: Page) {
  await page.goto("/passport");
  const href = await page.getByRole("link", { name: "View public passport" }).getAttribute("href");
  return href!.split("/").at(-1)!;
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? "with JavaScript" : "without JavaScript", () => {
    test.use({ javaScriptEnabled });

    test("a new member imports their LinkedIn export and the public passport shows the entries", async ({
      page,
      newPersonPage,
    }) => {
      await newAccount(page, { name: "Nia Newcomer" });
      await page.goto("/passport");
      await expect(page.getByText("No achievements yet")).toBeVisible();
      await page.getByRole("link", { name: "Import history" }).click();
      await expect(page).toHaveURL("/passport/import-history");
      await expect(page).toHaveTitle(/^Import history/);

      await page.getByLabel("LinkedIn export or JSON Resume").setInputFiles(linkedInExport());
      await page.getByRole("button", { name: "Read file" }).click();
      const list = page.getByRole("list", { name: "Entries to import" });
      await expect(page.getByRole("heading", { name: "Review 7 entries" })).toBeVisible();
      await expect(list.getByRole("checkbox", { name: "Add Head of Platform" })).toBeChecked();
      // LinkedIn names no issuer for an honour: unticked, with the reason, its fields open.
      const honour = list.getByRole("listitem").filter({ hasText: "Hackathon winner" });
      await expect(honour.getByText("Company/Organization is required")).toBeVisible();
      await expect(honour.getByRole("checkbox")).not.toBeChecked();
      await honour.getByLabel("Company/Organization").fill("Lisbon Tech Week");
      await honour.getByRole("checkbox").check();

      // Without JavaScript the button keeps the count the page was sent with; with it, it follows the ticks.
      await page.getByRole("button", { name: javaScriptEnabled ? "Add 5 achievements" : "Add 4 achievements" }).click();
      await expect(page).toHaveURL("/passport");
      await expect(toast(page, "Achievements added")).toContainText("5 achievements were added to your passport");
      await expect(page.getByRole("list", { name: "Your achievements" }).getByRole("article")).toHaveCount(5);

      const id = await passportIdOf(page);
      const visitor = await newPersonPage();
      await visitor.goto(`/passport/${id}`);
      for (const title of ["Head of Platform", "Hackathon winner", "MSc Computer Science"])
        await expect(visitor.getByRole("heading", { name: title })).toBeVisible();
      await expect(visitor.getByText("Lisbon Tech Week")).toBeVisible();
      await expect(visitor.getByRole("article")).toHaveCount(5);
    });
  });
}

test("a passport near its 2,000 imported entries: the list says how many to untick before adding", async ({ page }) => {
  const { id } = await newAccount(page, { name: "Fay Full" });
  await seedHistoryEntries(page.request, id, 1997);
  await page.goto("/passport/import-history");
  await page.getByLabel("LinkedIn export or JSON Resume").setInputFiles(linkedInExport());
  await page.getByRole("button", { name: "Read file" }).click();
  const room = page.getByText(
    "A passport holds at most 2,000 imported entries, and yours has room for 3 more. Untick 1, or delete imported ones you no longer need.",
  );
  await expect(room).toBeVisible();
  await expect(page.getByRole("button", { name: "Add 4 achievements" })).toBeDisabled();
  await page
    .getByRole("list", { name: "Entries to import" })
    .getByRole("checkbox", { name: "Add Head of Platform" })
    .uncheck();
  await expect(room).toHaveCount(0);
  await page.getByRole("button", { name: "Add 3 achievements" }).click();
  await expect(toast(page, "Achievements added")).toContainText("3 achievements were added to your passport");
});

test("importing the same export again adds nothing twice", async ({ page }) => {
  await newAccount(page, { name: "Rae Repeat" });
  for (const round of [1, 2]) {
    await page.goto("/passport/import-history");
    await page.getByLabel("LinkedIn export or JSON Resume").setInputFiles(linkedInExport());
    await page.getByRole("button", { name: "Read file" }).click();
    if (round === 1) {
      await page.getByRole("button", { name: "Add 4 achievements" }).click();
      await expect(toast(page, "Achievements added")).toBeVisible();
    }
  }
  const list = page.getByRole("list", { name: "Entries to import" });
  await expect(list.getByText("Already on your passport")).toHaveCount(4);
  await expect(page.getByRole("button", { name: "Add 0 achievements" })).toBeVisible();
});

test("printing a public passport of 12 entries prints all 12; the screen shows the first 8", async ({
  page,
  newPersonPage,
}) => {
  await newAccount(page, { name: "Pat Printer" });
  const rows = Array.from({ length: 12 }, (_, index) => `Fabrikam,Role ${index + 1},,2020-01-01`);
  await page.goto("/passport/import-history");
  await page.getByLabel("LinkedIn export or JSON Resume").setInputFiles({
    name: "Positions.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(["Company Name,Title,Description,Started On", ...rows].join("\n")),
  });
  await page.getByRole("button", { name: "Read file" }).click();
  await page.getByRole("button", { name: "Add 12 achievements" }).click();
  await expect(toast(page, "Achievements added")).toBeVisible();

  const visitor = await newPersonPage();
  await visitor.goto(`/passport/${await passportIdOf(page)}`);
  await expect(visitor.getByRole("article")).toHaveCount(8);
  await visitor.emulateMedia({ media: "print" });
  await expect(visitor.getByRole("article")).toHaveCount(12);
  for (let index = 1; index <= 12; index++)
    await expect(visitor.getByRole("heading", { name: `Role ${index}`, exact: true })).toBeVisible();
  await expect(visitor.getByText("more achievements:")).toHaveCount(0);
});

for (const colorScheme of ["light", "dark"] as const) {
  test(`the review list passes axe in ${colorScheme} mode and fits a 375px phone`, async ({ page }) => {
    await page.emulateMedia({ colorScheme });
    await page.setViewportSize({ width: 375, height: 812 });
    await newAccount(page, { name: "Axe Importer" });
    await page.goto("/passport/import-history");
    await page.getByLabel("LinkedIn export or JSON Resume").setInputFiles(linkedInExport());
    await page.getByRole("button", { name: "Read file" }).click();
    await expect(page.getByRole("heading", { name: "Review 7 entries" })).toBeVisible();
    const { violations } = await new AxeBuilder({ page })
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
      .analyze();
    expect(
      violations.map(({ id, nodes }) => `${id}: ${nodes.map((node) => node.target.join(" ")).join(", ")}`),
    ).toEqual([]);
    expect(await hasHorizontalScroll(page)).toBe(false);
  });
}
