import type { Page } from "@playwright/test";
import { newAccount } from "./accounts.ts";
import { expect, test } from "./fixtures.ts";
import { seedAchievements, seedNotifications } from "./seed-sql.ts";

// Paging through a long passport and the notifications history, with and without JavaScript,
// and printing a passport of more than one page (issues 18 and 20).

const PASSPORT_PAGE = 50; // PAGE_SIZES.passport
const NOTIFICATIONS_PAGE = 20; // PAGE_SIZES.notifications

const entryTitle = (i: number) => `Entry ${String(i).padStart(2, "0")}`;

async function ownId(page: Page) {
  await page.goto("/passport");
  const href = await page.getByRole("link", { name: "View public passport" }).getAttribute("href");
  return href!.split("/").pop()!;
}

/** A signed-up person with `count` accepted achievements, `Entry 00` the oldest; returns their id. */
async function personWithEntries(page: Page, count: number) {
  await newAccount(page, { name: "Lou Longcareer" });
  const id = await ownId(page);
  await seedAchievements(
    page.request,
    id,
    Array.from({ length: count }, (_, i) => ({
      title: entryTitle(i),
      date: new Date(Date.UTC(1990, 0, 1) + i * 86_400_000 * 30).toISOString().slice(0, 10),
      createdAt: Date.UTC(2024, 0, 1) + i,
    })),
  );
  return id;
}

const entries = (page: Page) => page.getByRole("article");
const passportPager = (page: Page) => page.getByRole("navigation", { name: "Achievement pages" });

for (const javaScriptEnabled of [true, false]) {
  test.describe(`paging ${javaScriptEnabled ? "with" : "without"} JavaScript`, () => {
    test.use({ javaScriptEnabled });

    test("a visitor pages through a long passport, with the count in view", async ({ page, newPersonPage }) => {
      const id = await personWithEntries(page, PASSPORT_PAGE + 12);
      const visitor = await newPersonPage();
      await visitor.goto(`/passport/${id}`);
      await expect(entries(visitor)).toHaveCount(8);
      await visitor.getByRole("link", { name: "View More Achievements" }).click();
      await expect(visitor).toHaveURL(`/passport/${id}?all=1`);
      await expect(passportPager(visitor)).toContainText(
        `Showing ${PASSPORT_PAGE} of ${PASSPORT_PAGE + 12} achievements`,
      );
      await expect(entries(visitor)).toHaveCount(PASSPORT_PAGE);
      await expect(entries(visitor).first()).toContainText(entryTitle(PASSPORT_PAGE + 11));

      await passportPager(visitor).getByRole("link", { name: "Next" }).click();
      await expect(passportPager(visitor)).toContainText(`Showing 12 of ${PASSPORT_PAGE + 12} achievements`);
      await expect(entries(visitor)).toHaveCount(12);
      await expect(entries(visitor).first()).toContainText(entryTitle(11));
      await expect(entries(visitor).last()).toContainText(entryTitle(0));
      await expect(passportPager(visitor).getByRole("link", { name: "Next" })).toHaveCount(0);

      await passportPager(visitor).getByRole("link", { name: "Previous" }).click();
      await expect(entries(visitor).first()).toContainText(entryTitle(PASSPORT_PAGE + 11));
      await expect(passportPager(visitor).getByRole("link", { name: "Previous" })).toHaveCount(0);
    });

    test("the notifications history pages newest first", async ({ page }) => {
      await newAccount(page, { name: "Nat Notified" });
      const id = await ownId(page);
      await seedNotifications(
        page.request,
        id,
        Array.from({ length: NOTIFICATIONS_PAGE + 5 }, (_, i) => ({
          title: entryTitle(i),
          createdAt: Date.UTC(2024, 0, 1) + i * 60_000,
        })),
      );
      await page.goto("/notifications");
      const pager = page.getByRole("navigation", { name: "Notification pages" });
      const main = page.getByRole("main");
      await expect(pager).toContainText(`Showing ${NOTIFICATIONS_PAGE} of`);
      await expect(main.getByText(entryTitle(NOTIFICATIONS_PAGE + 4), { exact: true })).toBeVisible();
      await expect(main.getByText(entryTitle(0), { exact: true })).toHaveCount(0);

      await pager.getByRole("link", { name: "Next" }).click();
      await expect(main.getByText(entryTitle(0), { exact: true })).toBeVisible();
      await expect(main.getByText(entryTitle(NOTIFICATIONS_PAGE + 4), { exact: true })).toHaveCount(0);
      await pager.getByRole("link", { name: "Previous" }).click();
      await expect(main.getByText(entryTitle(NOTIFICATIONS_PAGE + 4), { exact: true })).toBeVisible();
    });
  });
}

test("a visitor prints a passport of more than one page: every achievement, and no navigation", async ({
  page,
  newPersonPage,
}) => {
  const count = PASSPORT_PAGE + 12;
  const id = await personWithEntries(page, count);
  const visitor = await newPersonPage();
  await visitor.goto(`/passport/${id}`);
  await visitor.getByRole("link", { name: "Print or save as PDF" }).click();
  await expect(visitor).toHaveURL(`/passport/${id}/print`);
  await visitor.emulateMedia({ media: "print" });
  await expect(visitor.getByRole("banner")).toBeHidden();
  await expect(visitor.getByRole("link", { name: "Back to the passport" })).toBeHidden();
  await expect(visitor.getByRole("link", { name: "Create Your Passport" })).toHaveCount(0);
  await expect(entries(visitor)).toHaveCount(count);
  for (let i = 0; i < count; i++)
    await expect(visitor.getByRole("heading", { name: entryTitle(i), exact: true })).toBeVisible();
  await expect(visitor.getByText(`Lou Longcareer's career passport, kept up to date at`)).toBeVisible();
});
