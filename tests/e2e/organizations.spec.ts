import type { Page } from "@playwright/test";
import {
  confirmationLink,
  createOrganisation,
  joinAsNewMember,
  PASSWORD,
  newAccount,
  uniqueEmail,
  uniqueName,
} from "./accounts.ts";
import { expect, test, toast } from "./fixtures.ts";

const orgName = () => uniqueName("Harbour");

async function inviteLink(adminPage: Page) {
  await adminPage.goto("/dashboard");
  await expect(adminPage.getByRole("heading", { name: "Organisation Admin" })).toBeVisible();
  return adminPage.getByRole("textbox", { name: "Invite link" }).inputValue();
}

/** The link's path and query (its code), to open on the test server. */
const pathOf = (link: string) => new URL(link).pathname + new URL(link).search;

test.describe("organisations", () => {
  test("a newcomer signs up from an invite, confirms through the mailbox and lands back on the invite, joined", async ({
    page,
    secondPage: person,
  }) => {
    const name = orgName();
    const { invitePath } = await createOrganisation(page, { adminName: "Ivy Admin", name });

    await person.goto(invitePath);
    await person.getByRole("link", { name: "Sign Up" }).click();
    await person.getByRole("link", { name: /Personal/ }).click();
    const email = uniqueEmail("invited");
    await person.getByLabel("Full Name").fill("Nova Newcomer");
    await person.getByLabel("Email").fill(email);
    await person.getByLabel("Password").fill(PASSWORD);
    await person.getByRole("button", { name: "Create Account" }).click();
    await expect(person.getByRole("heading", { name: "Check your email" })).toBeVisible();

    // The link in the mail carries the invite through confirmation.
    await person.goto(await confirmationLink(person.request, email));
    await expect(person.getByRole("heading", { name: "Email confirmed" })).toBeVisible();
    await expect(person.getByRole("heading", { name: "Successfully joined!" })).toBeVisible({ timeout: 10_000 });
    await expect(person).toHaveURL("/dashboard", { timeout: 5000 });
    // And the dashboard says it again as a toast (issue 34).
    await expect(toast(person, "Successfully joined!")).toBeVisible();
    await expect(person.getByText(name).first()).toBeVisible();

    await page.reload();
    await expect(page.getByRole("list", { name: "Team members" })).toContainText("Nova Newcomer");
  });

  test("an admin shares the invite link and a signed-out individual joins through it", async ({
    page,
    secondPage: person,
  }) => {
    const name = orgName();
    await createOrganisation(page, { adminName: "Ola Admin", name });
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.getByRole("button", { name: "Copy Link" }).click();
    await expect(page.getByRole("button", { name: "Copied" })).toBeVisible();
    await expect(toast(page, "Link copied!")).toContainText("Share this link with members to invite them.");
    // The person opens exactly what was copied: the link with its secret code.
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toMatch(/\/join\/[0-9a-f-]{36}\?code=[A-Za-z0-9_-]{22}$/);

    // Signed out: asked to sign in, then brought back to the invite, which joins.
    const { email } = await newAccount(person, { name: "Ines Member" });
    await person.request.post("/auth/signout");
    await person.goto(pathOf(link));
    await expect(person.getByRole("heading", { name: "Sign in required" })).toBeVisible();
    await person.getByRole("link", { name: "Sign In" }).click();
    await person.getByLabel("Email").fill(email);
    await person.getByLabel("Password").fill(PASSWORD);
    await person.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(person.getByRole("heading", { name: "Successfully joined!" })).toBeVisible();
    await expect(person).toHaveURL("/dashboard", { timeout: 5000 });
    await expect(person.getByText(name).first()).toBeVisible();

    // Opening it again creates nothing and says so.
    await person.goto(pathOf(link));
    await expect(toast(person, "Already a member")).toBeVisible();
    await expect(person).toHaveURL("/dashboard");

    await page.reload();
    await expect(page.getByRole("list", { name: "Team members" })).toContainText("Ines Member");
  });

  test("the bare organisation id only asks to join; a reset link stops the old one", async ({
    page,
    secondPage: person,
    newPersonPage,
  }) => {
    const name = orgName();
    await createOrganisation(page, { adminName: "Bea Admin", name });
    const link = await inviteLink(page);
    await newAccount(person, { name: "Ned Nocode" });
    await person.goto(new URL(link).pathname);
    await expect(person.getByRole("heading", { name: `Join ${name}` })).toBeVisible();
    await person.getByRole("button", { name: `Request to Join ${name}` }).click();
    await expect(toast(person, "Request sent")).toContainText("Your membership request has been sent");
    await expect(person).toHaveURL("/dashboard");

    await page.reload();
    await expect(page.getByRole("button", { name: "Approve Ned Nocode" })).toBeVisible();
    await expect(page.getByRole("list", { name: "Team members" })).not.toContainText("Ned Nocode");

    // Reset, with a confirmation: the old link now only asks, the new one joins.
    await page.getByRole("button", { name: "Reset link" }).click();
    await page
      .getByRole("alertdialog", { name: "Reset the invite link?" })
      .getByRole("button", { name: "Reset Link" })
      .click();
    await expect(toast(page, "Invite link reset")).toBeVisible();
    const newLink = await page.getByRole("textbox", { name: "Invite link" }).inputValue();
    expect(newLink).not.toBe(link);
    const late = await newPersonPage();
    await newAccount(late, { name: "Lou Late" });
    await late.goto(pathOf(link));
    await expect(late.getByText("This invite link is no longer valid.")).toBeVisible();
    await late.goto(pathOf(newLink));
    await expect(late.getByRole("heading", { name: "Successfully joined!" })).toBeVisible();
  });

  test("an individual searches and requests; the admin approves; the card shows Member", async ({
    page,
    secondPage: person,
  }) => {
    const name = orgName();
    await createOrganisation(page, { adminName: "Ada Admin", name });
    await newAccount(person, { name: "Rory Request" });
    await person.goto("/dashboard");
    await person.getByLabel("Find your organisation").fill(name.toUpperCase());
    await person.getByRole("button", { name: "Search" }).click();
    const card = person.getByRole("listitem").filter({ hasText: name });
    await card.getByRole("button", { name: `Request to Join ${name}` }).click();
    await expect(toast(person, "Request sent")).toContainText("Your membership request has been sent");
    await expect(card.getByRole("button", { name: "Pending Approval" })).toBeDisabled();

    await page.goto("/dashboard");
    await page.getByRole("button", { name: "Approve Rory Request" }).click();
    await expect(toast(page, "Member approved")).toContainText("The member has been added to your organisation.");
    await expect(page.getByRole("list", { name: "Team members" })).toContainText("Rory Request");

    // The member's dashboard now belongs to the organisation.
    await person.goto("/dashboard");
    await expect(person.getByText(name).first()).toBeVisible();
  });

  test("an admin rejects a request and removes a member, each with confirmation", async ({
    page,
    secondPage: person,
  }) => {
    const name = orgName();
    const { invitePath } = await createOrganisation(page, { adminName: "Remy Admin", name });
    await joinAsNewMember(person, invitePath, { name: "Tess Team" });

    await page.reload();
    await page.getByRole("button", { name: "Remove Tess Team" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Remove Tess Team?" });
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByRole("list", { name: "Team members" })).toContainText("Tess Team");
    await page.getByRole("button", { name: "Remove Tess Team" }).click();
    await dialog.getByRole("button", { name: "Remove Member" }).click();
    await expect(toast(page, "Member removed")).toBeVisible();
    await expect(page.getByRole("list", { name: "Team members" })).not.toContainText("Tess Team");
  });

  test("a member leaves with confirmation", async ({ page, secondPage: person }) => {
    const name = orgName();
    const { invitePath } = await createOrganisation(page, { adminName: "Lena Admin", name });
    await joinAsNewMember(person, invitePath, { name: "Leo Leaver" });

    await person.getByRole("button", { name: `Leave ${name}` }).click();
    const dialog = person.getByRole("alertdialog", { name: "Are you sure?" });
    await expect(dialog).toContainText(`This will remove you from ${name}. You'll need a new invite link to rejoin.`);
    await dialog.getByRole("button", { name: "Leave Organisation" }).click();
    await expect(toast(person, "Left organisation")).toBeVisible();
    await expect(person.getByText("Personal Dashboard")).toBeVisible();
  });
});

test.describe("organisations without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the invite link joins, and the bare id sends a request", async ({
    page,
    secondPage: person,
    newPersonPage,
  }) => {
    const name = orgName();
    const { invitePath, organizationId } = await createOrganisation(page, { adminName: "Nora Admin", name });
    await newAccount(person, { name: "Jo Joiner" });
    await person.goto(invitePath);
    await person.getByRole("button", { name: `Join ${name}` }).click();
    await expect(person.getByRole("heading", { name: "Successfully joined!" })).toBeVisible();
    // Without JavaScript the page moves on by itself, and the dashboard shows the toast.
    await expect(person).toHaveURL("/dashboard", { timeout: 5000 });
    await expect(toast(person, "Successfully joined!")).toBeVisible();

    const asker = await newPersonPage();
    await newAccount(asker, { name: "Ash Asker" });
    await asker.goto(`/join/${organizationId}`);
    await asker.getByRole("button", { name: `Request to Join ${name}` }).click();
    await expect(toast(asker, "Request sent")).toBeVisible();

    await page.reload();
    await expect(page.getByRole("list", { name: "Team members" })).toContainText("Jo Joiner");
    await expect(page.getByRole("button", { name: "Approve Ash Asker" })).toBeVisible();
  });

  test("the whole request-and-approve path", async ({ page, secondPage: person }) => {
    const name = orgName();
    await createOrganisation(page, { adminName: "Nia Admin", name });
    await newAccount(person, { name: "Noel NoScript" });

    await person.goto("/dashboard");
    await person.getByLabel("Find your organisation").fill(name);
    await person.getByRole("button", { name: "Search" }).click();
    await person.getByRole("button", { name: `Request to Join ${name}` }).click();
    await expect(toast(person, "Request sent")).toBeVisible();
    await expect(person.getByRole("button", { name: "Pending Approval" })).toBeDisabled();

    await page.goto("/dashboard");
    await page.getByRole("button", { name: "Approve Noel NoScript" }).click();
    await expect(toast(page, "Member approved")).toBeVisible();
    await expect(page.getByRole("list", { name: "Team members" })).toContainText("Noel NoScript");

    await person.goto("/dashboard");
    await person.getByRole("link", { name: `Leave ${name}` }).click();
    await person.getByRole("button", { name: "Leave Organisation" }).click();
    await expect(toast(person, "Left organisation")).toBeVisible();
  });
});
