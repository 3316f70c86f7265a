import { readFile } from "node:fs/promises";
import { createOrganisation, joinAsNewMember, uniqueName } from "./accounts.ts";
import { expect, test, toast } from "./fixtures.ts";

test("a member accepts, downloads the credential and the Verify page reports it valid; revoked after the admin revokes it", async ({
  page: admin,
  secondPage: member,
}) => {
  // Two accounts, an organisation, two verifications and a revocation: a long story.
  test.slow();
  const { invitePath } = await createOrganisation(admin, { adminName: "Ida Issuer", name: uniqueName("Issuers") });
  await joinAsNewMember(member, invitePath, { name: "Vera Verified" });

  await admin.reload();
  await admin.getByRole("button", { name: "Give Achievement to Vera Verified" }).click();
  const dialog = admin.getByRole("dialog", { name: "Add Achievement" });
  await dialog.getByLabel("Title").fill("Open Standards Champion");
  await dialog.getByRole("button", { name: "Create Achievement" }).click();
  await expect(toast(admin, "Achievement created")).toBeVisible();

  await member.goto("/passport");
  await member.getByRole("button", { name: "Accept Open Standards Champion" }).click();
  await expect(toast(member, "Achievement accepted")).toBeVisible();

  // Download the credential file, as a person hands it to a recruiter.
  const downloading = member.waitForEvent("download");
  await member.getByRole("link", { name: "Download credential for Open Standards Champion" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^credential-[0-9a-f-]{36}\.json$/);
  const file = await download.path();
  const credential = JSON.parse(await readFile(file, "utf8"));
  expect(credential.type).toContain("OpenBadgeCredential");

  // Anyone checks the file on the Verify page.
  const verify = async () => {
    await member.goto("/verify");
    await member.getByLabel("Credential file").setInputFiles(file);
    await member.getByRole("button", { name: "Verify" }).click();
    return member.getByRole("status");
  };
  let result = await verify();
  await expect(result.getByRole("heading")).toHaveText("Status: Valid");
  for (const check of ["Schema", "Issuer key", "Signature", "Status", "Dates"]) {
    await expect(
      result
        .getByRole("listitem")
        .filter({ hasText: `${check}:` })
        .getByRole("img"),
    ).toHaveAccessibleName("Passed");
  }

  // The 'Verify' link shows the credential's own page.
  await member.goto("/passport");
  await member.getByRole("link", { name: "Verify Open Standards Champion" }).click();
  await expect(member.getByRole("heading", { level: 1, name: "Open Standards Champion" })).toBeVisible();
  await expect(member.getByText("Vera Verified")).toBeVisible();
  await expect(member.getByRole("status").getByRole("heading")).toHaveText("Status: Valid");

  // The admin revokes it from the list of given achievements, after a confirmation.
  await admin.goto("/dashboard");
  await admin.getByRole("link", { name: "Given achievements" }).click();
  await admin.getByRole("button", { name: "Revoke" }).click();
  const confirm = admin.getByRole("alertdialog", { name: 'Revoke "Open Standards Champion"?' });
  await confirm.getByRole("button", { name: "Revoke credential" }).click();
  await expect(toast(admin, "Credential revoked")).toBeVisible();
  await expect(admin.getByText("Revoked", { exact: true })).toBeVisible();

  result = await verify();
  await expect(result.getByRole("heading")).toHaveText("Status: Revoked");
  await expect(result.getByRole("listitem").filter({ hasText: "Status:" })).toContainText("Revoked by the issuer.");
  await member.goto("/passport");
  await expect(member.getByText("Open Standards Champion")).toHaveCount(0);
});
