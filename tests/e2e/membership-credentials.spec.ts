import { createOrganisation, joinAsNewMember, uniqueName } from "./accounts.ts";
import { expect, test, toast } from "./fixtures.ts";

/** Today as the passport writes it: "26 November 2026" (UTC). */
const longToday = () =>
  new Date().toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

test.describe("membership credentials", () => {
  test("a member who joins by invite sees 'Member of …' on their passport, with its dates once they leave", async ({
    page,
    secondPage: person,
  }) => {
    const name = uniqueName("Guild");
    const { invitePath } = await createOrganisation(page, { adminName: "Gia Admin", name });
    await joinAsNewMember(person, invitePath, { name: "Milo Member" });

    await person.goto("/passport");
    const entries = person.getByRole("list", { name: "Your achievements" });
    const entry = entries.getByRole("listitem").filter({ hasText: `Member of ${name}` });
    await expect(entry).toBeVisible();
    await expect(entry.getByText("Membership", { exact: true })).toBeVisible();
    await expect(entry.getByRole("img", { name: "Verified credential" })).toBeVisible();
    await expect(entry.getByRole("link", { name: /Verify/ }).first()).toBeVisible();

    await person.goto("/dashboard");
    await person.getByRole("button", { name: `Leave ${name}` }).click();
    await person
      .getByRole("alertdialog", { name: "Are you sure?" })
      .getByRole("button", { name: "Leave Organisation" })
      .click();
    await expect(toast(person, "Left organisation")).toBeVisible();

    await person.goto("/passport");
    await expect(
      entries.getByRole("heading", { name: `Member of ${name}, ${longToday()} – ${longToday()}` }),
    ).toBeVisible();
  });

  test("an admin turns membership credentials off on the Organisation profile", async ({ page }) => {
    await createOrganisation(page, { adminName: "Oda Admin", name: uniqueName("Quiet") });
    await page.goto("/dashboard/organization");
    const card = page.locator("form#set-membership-credentials");
    const box = card.getByRole("checkbox", { name: "Give members a membership credential" });
    await expect(box).toBeChecked();
    await box.click();
    await card.getByRole("button", { name: "Save" }).click();
    await expect(toast(page, "Membership credentials off")).toBeVisible();
    await page.reload();
    await expect(box).not.toBeChecked();
  });
});
