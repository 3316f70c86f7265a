import { newAccount } from "./accounts.ts";
import { expect, test, toast } from "./fixtures.ts";

// Endorsements (issue 33, decision 072): a colleague endorses from the public passport, the owner
// shows it from their passport's Endorsements page, and a signed-out visitor sees 'Endorsed by 1'.
test("a colleague endorses, the owner approves, and a visitor sees 'Endorsed by 1'", async ({
  page: owner,
  newPersonPage,
}) => {
  await newAccount(owner, { name: "Olive Owner" });
  await owner.goto("/passport");
  await owner.getByRole("button", { name: "Add Self Achievement" }).click();
  const dialog = owner.getByRole("dialog", { name: "Add Self Achievement" });
  await dialog.getByLabel("Title").fill("Bridge Inspection");
  await dialog.getByLabel("Company/Organization").fill("City Works");
  await dialog.getByRole("button", { name: "Add Achievement" }).click();
  await expect(toast(owner, "Achievement added")).toBeVisible();
  const passportPath = await owner.getByRole("link", { name: "View public passport" }).getAttribute("href");

  const colleague = await newPersonPage();
  await newAccount(colleague, { name: "Cora Colleague" });
  await colleague.goto(passportPath!);
  const card = colleague.getByRole("article").filter({ hasText: "Bridge Inspection" });
  await card.getByRole("link", { name: "Endorse" }).click();
  await expect(colleague.getByRole("heading", { name: "Endorse Bridge Inspection - City Works" })).toBeVisible();
  await colleague.getByLabel("What would you like to say?").fill("Thorough and calm under pressure.");
  await colleague.getByRole("button", { name: "Endorse" }).click();
  await expect(toast(colleague, "Endorsement sent")).toBeVisible();
  await expect(colleague.getByText("You endorsed it")).toBeVisible();

  await owner.goto("/passport");
  await owner.getByRole("link", { name: "Endorsements" }).click();
  const item = owner.getByRole("list", { name: "Endorsements received" }).getByRole("listitem");
  await expect(item).toContainText("Cora Colleague endorsed");
  await expect(item).toContainText("Thorough and calm under pressure.");
  await item.getByRole("button", { name: "Show" }).click();
  await expect(toast(owner, "Endorsement shown")).toBeVisible();
  await expect(item.getByRole("button", { name: "Remove" })).toBeVisible();

  const visitor = await newPersonPage();
  await visitor.goto(passportPath!);
  const publicCard = visitor.getByRole("article").filter({ hasText: "Bridge Inspection" });
  await publicCard.getByRole("button", { name: /^Endorsed by 1/ }).click();
  const endorsements = visitor.getByRole("dialog", { name: "Endorsed by 1" });
  await expect(endorsements).toContainText("Cora Colleague");
  await expect(endorsements).toContainText("Thorough and calm under pressure.");
  // Issue 43: a name is what its endorser typed; the dialog says a person endorsed.
  await expect(endorsements.getByText("Person", { exact: true })).toBeVisible();
});
