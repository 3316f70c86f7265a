import { createOrganisation } from "./accounts.ts";
import { expect, test, toast } from "./fixtures.ts";
import { confirmTwoFactor, startTwoFactor } from "./two-factor-steps.ts";

// Issue 30, decision 062: an admin requires two-factor (or a passkey) of the organisation's admins
// on Organisation profile, with and without JavaScript; turning it on asks for their own first.

const OWN_FIRST = "Turn on two-factor authentication or add a passkey for your own account first.";

for (const javaScriptEnabled of [true, false]) {
  test.describe(`Admin sign-in ${javaScriptEnabled ? "with" : "without"} JavaScript`, () => {
    test.use({ javaScriptEnabled });

    test("refused without the admin's own two-factor, saved once it is on", async ({ page }) => {
      await createOrganisation(page, { adminName: "Strict Admin" });
      await page.goto("/dashboard/organization");
      const section = page.locator("#set-admin-sign-in");
      const requirement = section.getByLabel("Require two-factor authentication or a passkey for admins");
      await requirement.check();
      await section.getByRole("button", { name: "Save" }).click();
      await expect(section.getByRole("alert")).toHaveText(new RegExp(OWN_FIRST));
      await section.getByRole("link", { name: "Set up two-factor authentication" }).click();
      await expect(page).toHaveURL("/settings/security#two-factor");

      await confirmTwoFactor(page, await startTwoFactor(page));
      await expect(toast(page, "Two-factor authentication is on")).toBeVisible();

      await page.goto("/dashboard/organization");
      await expect(section.getByText("Every admin has two-factor authentication or a passkey.")).toBeVisible();
      await requirement.check();
      await section.getByRole("button", { name: "Save" }).click();
      await expect(toast(page, "Admin sign-in saved")).toBeVisible();
      await expect(requirement).toBeChecked();
      // The admin holds a factor: the dashboard still opens.
      await page.goto("/dashboard");
      await expect(page.getByRole("heading", { name: "Team Members" })).toBeVisible();
    });
  });
}
