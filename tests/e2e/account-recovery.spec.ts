import { PASSWORD, passwordResetLink, newAccount } from "./accounts.ts";
import { expect, test, toast } from "./fixtures.ts";

const NEW_PASSWORD = "brand-new-horse-9";

for (const javaScriptEnabled of [true, false]) {
  test.describe(`forgot password ${javaScriptEnabled ? "with" : "without"} JavaScript`, () => {
    test.use({ javaScriptEnabled });

    test("a link from the mailbox sets a new password and signs this browser in", async ({ page }) => {
      const { email } = await newAccount(page, { name: "Fergus Forgetful" });
      await page.context().clearCookies();

      await page.goto("/auth");
      await page.getByRole("link", { name: "Forgot password?" }).click();
      await expect(page).toHaveURL("/auth/forgot-password");
      await page.getByLabel("Email").fill(email);
      await page.getByRole("button", { name: "Send reset link" }).click();
      await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();

      await page.goto(await passwordResetLink(page.request, email));
      await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
      await page.getByLabel("New Password", { exact: true }).fill(NEW_PASSWORD);
      await page.getByLabel("Confirm New Password").fill("not-the-same-1");
      await page.getByRole("button", { name: "Set new password" }).click();
      await expect(page.getByText("Passwords don't match").first()).toBeVisible();

      await page.getByLabel("New Password", { exact: true }).fill(NEW_PASSWORD);
      await page.getByLabel("Confirm New Password").fill(NEW_PASSWORD);
      await page.getByRole("button", { name: "Set new password" }).click();
      await expect(page).toHaveURL("/dashboard");
      await expect(toast(page, "Password updated")).toBeVisible();
      await expect(page.getByText("Welcome, Fergus Forgetful")).toBeVisible();

      // The link worked once.
      const link = await passwordResetLink(page.request, email);
      await page.context().clearCookies();
      await page.goto(link);
      await expect(page.getByRole("heading", { name: "This link has expired" })).toBeVisible();
      await expect(page.getByRole("link", { name: "Send me a new link" })).toBeVisible();

      // The old password no longer signs in; the new one does.
      await page.goto("/auth");
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign In", exact: true }).click();
      await expect(page.getByRole("alert")).toContainText("Invalid email or password");
      await page.getByLabel("Password").fill(NEW_PASSWORD);
      await page.getByRole("button", { name: "Sign In", exact: true }).click();
      await expect(page).toHaveURL("/dashboard");
    });

    test("signing in to an archived account offers Reactivate or permanent deletion, which asks for the password", async ({
      page,
    }) => {
      const { email } = await newAccount(page, { name: "Arlo Archived" });
      await page.goto("/settings/danger?confirm=archive");
      if (javaScriptEnabled) {
        await page.getByRole("button", { name: "Archive Account" }).click();
        await page.getByRole("alertdialog").getByRole("button", { name: "Archive Account" }).click();
      } else {
        await page
          .getByRole("region", { name: "Archive your account?" })
          .getByRole("button", { name: "Archive Account" })
          .click();
      }
      await expect(page.getByRole("heading", { name: "Account Archived" })).toBeVisible();
      await page.context().clearCookies();

      await page.goto("/auth");
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign In", exact: true }).click();
      await expect(page.getByRole("heading", { name: "Account Archived" })).toBeVisible();
      await expect(page.getByRole("button", { name: "Reactivate" })).toBeVisible();

      const deleteWith = async (password: string) => {
        if (javaScriptEnabled) {
          const dialog = page.getByRole("alertdialog", { name: "Permanently delete all data?" });
          if (!(await dialog.isVisible()))
            await page.getByRole("button", { name: "Permanently Delete All Data" }).click();
          await dialog.getByLabel("Current Password").fill(password);
          await dialog.getByRole("button", { name: "Delete Everything" }).click();
        } else {
          if (!(await page.getByLabel("Current Password").isVisible()))
            await page.getByRole("link", { name: "Permanently Delete All Data" }).click();
          await page.getByLabel("Current Password").fill(password);
          await page.getByRole("button", { name: "Delete Everything" }).click();
        }
      };
      await deleteWith("wrong-password-1");
      await expect(page.getByText("Password is incorrect").first()).toBeVisible();
      // With JavaScript the refusal keeps the dialog open, the message under its field.
      if (javaScriptEnabled)
        await expect(
          page.getByRole("alertdialog", { name: "Permanently delete all data?" }).getByText("Password is incorrect"),
        ).toBeVisible();
      await deleteWith(PASSWORD);
      await expect(page.getByRole("heading", { name: "Account Purged" })).toBeVisible();

      await page.goto("/auth");
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign In", exact: true }).click();
      await expect(page.getByRole("alert")).toContainText("Invalid email or password");
    });
  });
}
