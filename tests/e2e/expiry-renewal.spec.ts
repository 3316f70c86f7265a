import { createOrganisation, joinAsNewMember, uniqueName } from "./accounts.ts";
import { expect, test, toast } from "./fixtures.ts";

/** `days` after today (UTC), as a date field takes it and as the passport writes it. */
const inDays = (days: number) => {
  const date = new Date(Date.now() + days * 86_400_000);
  return {
    iso: date.toISOString().slice(0, 10),
    long: date.toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }),
  };
};

test("an admin gives an achievement with 'Valid until', the member accepts it; the admin renews it and the entry shows its history", async ({
  page: admin,
  secondPage: member,
}) => {
  // Two accounts, two gifts and two answers.
  test.slow();
  const { invitePath } = await createOrganisation(admin, { adminName: "Ren Admin", name: uniqueName("Renewers") });
  await joinAsNewMember(member, invitePath, { name: "Val Holder" });
  const firstUntil = inDays(20);
  const renewedUntil = inDays(400);

  await admin.reload();
  await admin.getByRole("button", { name: "Give Achievement to Val Holder" }).click();
  const dialog = admin.getByRole("dialog", { name: "Add Achievement" });
  await dialog.getByLabel("Title").fill("Crane Operator Licence");
  await dialog.getByLabel("Type").selectOption("training");
  // Refused when not after the achievement's date; what was typed stays.
  await dialog.getByLabel("Valid until (optional)").fill(inDays(-1).iso);
  await dialog.getByRole("button", { name: "Create Achievement" }).click();
  await expect(dialog.getByText("Valid until must be after the achievement date")).toBeVisible();
  await expect(dialog.getByLabel("Title")).toHaveValue("Crane Operator Licence");
  await dialog.getByLabel("Valid until (optional)").fill(firstUntil.iso);
  await dialog.getByRole("button", { name: "Create Achievement" }).click();
  await expect(toast(admin, "Achievement created")).toBeVisible();

  await member.goto("/passport");
  await member.getByRole("button", { name: "Accept Crane Operator Licence" }).click();
  await expect(toast(member, "Achievement accepted")).toBeVisible();
  const entries = member.getByRole("list", { name: "Your achievements" });
  const entry = entries.getByRole("listitem").filter({ hasText: "Crane Operator Licence" });
  await expect(entry.getByText(`Valid until ${firstUntil.long}`)).toBeVisible();

  // The admin finds it under 'Expiring in 30 days' and renews it.
  await admin.goto("/dashboard/achievements");
  await admin.getByRole("link", { name: "Expiring in 30 days" }).click();
  await expect(admin).toHaveURL(/filter=expiring/);
  const row = admin.getByRole("listitem").filter({ hasText: "Crane Operator Licence" });
  await expect(row.getByText(`Valid until ${firstUntil.long}`)).toBeVisible();
  await row.getByRole("button", { name: "Renew" }).click();
  const renewDialog = admin.getByRole("alertdialog", { name: 'Renew "Crane Operator Licence"?' });
  await renewDialog.getByLabel("Valid until").fill(renewedUntil.iso);
  await renewDialog.getByRole("button", { name: "Renew" }).click();
  await expect(toast(admin, "Achievement renewed")).toBeVisible();

  await member.goto("/passport");
  await member.getByRole("button", { name: "Accept Crane Operator Licence" }).click();
  await expect(toast(member, "Achievement accepted")).toBeVisible();
  // Listed once: the older entry is folded into the renewal's history.
  await expect(entry).toHaveCount(1);
  await expect(entry.getByText(`Valid until ${renewedUntil.long}`)).toBeVisible();
  await expect(entry.getByText(`Renewed 1 time, first given ${inDays(0).long}`)).toBeVisible();
});
