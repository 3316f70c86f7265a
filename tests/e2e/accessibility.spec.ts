import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import {
  confirmationLink,
  createOrganisation,
  otherAddressLink,
  PASSWORD,
  newAccount,
  uniqueEmail,
} from "./accounts.ts";
import { expect, test } from "./fixtures.ts";
import { addPasskey, virtualAuthenticator, withoutPasskeyAutofill } from "./passkey-steps.ts";
import { confirmTwoFactor, startTwoFactor } from "./two-factor-steps.ts";

// Issue 30: every page added by issues 29 and 30 passes axe (WCAG 2.1 A and AA rules), in the
// state a person meets it in, light and dark.

async function expectNoViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  expect(violations.map(({ id, nodes }) => `${id}: ${nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual(
    [],
  );
}

for (const colorScheme of ["light", "dark"] as const) {
  test.describe(`${colorScheme} mode`, () => {
    test.use({ colorScheme });

    test("Organisation profile, with a domain waiting for its record and Admin sign-in", async ({ page }) => {
      await createOrganisation(page, { adminName: "Axe Admin" });
      await page.goto("/dashboard/organization");
      await page.getByLabel("Domain").fill(`axe-${crypto.randomUUID().slice(0, 6)}.example`);
      await page.getByRole("button", { name: "Add domain" }).click();
      await expect(page.getByRole("button", { name: "Verify domain" })).toBeVisible();
      // With its Admin sign-in section, as an admin without two-factor meets it.
      await expect(page.getByRole("heading", { name: "Admin sign-in" })).toBeVisible();
      await expectNoViolations(page);
    });

    test("Settings, with its Sessions list", async ({ page }) => {
      await newAccount(page);
      await page.goto("/settings/sessions");
      await expect(page.getByText("This browser")).toBeVisible();
      await expectNoViolations(page);
    });

    test("the confirmation page opened in another browser, asking for the password", async ({
      page,
      newPersonPage,
    }) => {
      const email = uniqueEmail();
      const signUp = await page.request.post("/auth", {
        form: { intent: "signup", name: "Axe Person", email, password: PASSWORD },
      });
      expect(signUp.ok()).toBe(true);
      const elsewhere = await newPersonPage();
      await elsewhere.goto(await confirmationLink(page.request, email));
      await expect(elsewhere.getByLabel("Password")).toBeVisible();
      await expectNoViolations(elsewhere);
    });

    test("two-factor: Settings showing the QR code and key, then the second sign-in step", async ({ page }) => {
      const { email } = await newAccount(page);
      const key = await startTwoFactor(page);
      await expectNoViolations(page);

      await confirmTwoFactor(page, key);
      await expect(page.getByTestId("recovery-codes")).toBeVisible();
      await expectNoViolations(page);

      await page.context().clearCookies();
      await page.goto("/auth");
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign In", exact: true }).click();
      await expect(page).toHaveURL("/auth/two-factor");
      await expectNoViolations(page);
    });

    test("passkeys: Settings listing one, its remove dialog, and the sign-in page offering it", async ({ page }) => {
      await withoutPasskeyAutofill(page);
      await virtualAuthenticator(page);
      await newAccount(page);
      await addPasskey(page, "Axe laptop");
      const list = page.getByRole("list", { name: "Your passkeys" });
      await expect(list).toContainText("Axe laptop");
      await list.getByText("Rename").click();
      await expectNoViolations(page);
      await list.getByRole("button", { name: "Remove" }).click();
      await expect(page.getByRole("alertdialog")).toBeVisible();
      await expectNoViolations(page);

      await page.context().clearCookies();
      await page.goto("/auth");
      await expect(page.getByRole("button", { name: "Sign in with a passkey" })).toBeVisible();
      await expectNoViolations(page);
    });

    test("other e-mail addresses: Settings listing a pending one, its remove dialog, and the link's page", async ({
      page,
    }) => {
      await newAccount(page);
      const address = uniqueEmail("axe-other");
      await page.goto("/settings/addresses");
      await page.locator("#other-addresses").getByLabel("Email address").fill(address);
      await page.getByRole("button", { name: "Add address" }).click();
      const list = page.getByRole("list", { name: "Your other e-mail addresses" });
      await expect(list).toContainText("Waiting for confirmation");
      await expectNoViolations(page);
      await list.getByRole("button", { name: `Remove ${address}` }).click();
      await expect(page.getByRole("alertdialog")).toBeVisible();
      await expectNoViolations(page);
      await page.keyboard.press("Escape");

      await page.goto(await otherAddressLink(page.request, address));
      await expect(page.getByRole("button", { name: "Confirm address" })).toBeVisible();
      await expectNoViolations(page);
    });

    test("the Verify page", async ({ page }) => {
      await page.goto("/verify");
      await expectNoViolations(page);
    });
  });
}
