import type { Page } from "@playwright/test";
import { createOrganisation, uniqueName } from "./accounts.ts";
import { expect, test } from "./fixtures.ts";
import { seedMembers } from "./seed-sql.ts";

const PAGE = 25; // PAGE_SIZES.teamMembers

async function organisationWithManyMembers(page: Page) {
  const { organizationId } = await createOrganisation(page, { adminName: "Pia Pages", name: uniqueName("Crewed") });
  await seedMembers(
    page.request,
    organizationId,
    Array.from({ length: PAGE + 10 }, (_, i) => ({
      name: `Crew ${String(i).padStart(2, "0")}`,
      approvedAt: Date.UTC(2024, 0, 1) + i * 60_000,
    })),
  );
  await page.goto("/dashboard");
}

const members = (page: Page) => page.getByRole("list", { name: "Team members" }).getByRole("listitem");
const pager = (page: Page) => page.getByRole("navigation", { name: "Team members pages" });

for (const javaScriptEnabled of [true, false]) {
  test.describe(`paging Team Members ${javaScriptEnabled ? "with" : "without"} JavaScript`, () => {
    test.use({ javaScriptEnabled });

    test("next, previous and a name search, with the count in view", async ({ page }) => {
      await organisationWithManyMembers(page);
      await expect(pager(page)).toContainText(`Showing ${PAGE} of ${PAGE + 11} members`);
      await expect(members(page)).toHaveCount(PAGE);
      // Newest first: the admin's own membership is today's, the crew joined in 2024.
      await expect(members(page).first()).toContainText("Pia Pages");
      await expect(members(page).nth(1)).toContainText(`Crew ${PAGE + 9}`);

      await pager(page).getByRole("link", { name: "Next" }).click();
      await expect(pager(page)).toContainText(`Showing 11 of ${PAGE + 11} members`);
      await expect(members(page).first()).toContainText("Crew 10");
      await expect(members(page).last()).toContainText("Crew 00");
      await expect(pager(page).getByRole("link", { name: "Next" })).toHaveCount(0);

      await pager(page).getByRole("link", { name: "Previous" }).click();
      await expect(members(page).first()).toContainText("Pia Pages");
      await expect(pager(page).getByRole("link", { name: "Previous" })).toHaveCount(0);

      const search = page.getByRole("search", { name: "Search team members" });
      await search.getByRole("searchbox", { name: "Search team members" }).fill("crew 1");
      await search.getByRole("button", { name: "Search" }).click();
      await expect(pager(page)).toContainText("Showing 10 of 10 matching members");
      await expect(members(page)).toHaveCount(10);
    });
  });
}
