import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { createOrganisation, joinAsNewMember, newAccount } from "./accounts.ts";
import { expect, hasHorizontalScroll, test, toast } from "./fixtures.ts";

// Issue 29: an organisation proves its domain, and every page that shows one of its credentials
// says so; an organisation that only copied its name is marked. The database is shared by every
// test, so names and domains carry this run's own suffix.

/** The admin gives `title` to `recipient` from the dashboard; the recipient accepts it on their passport. */
async function giveAndAccept(admin: Page, member: Page, recipient: string, title: string) {
  await admin.goto("/dashboard");
  await admin.getByRole("button", { name: `Give Achievement to ${recipient}` }).click();
  const dialog = admin.getByRole("dialog", { name: "Add Achievement" });
  await dialog.getByLabel("Title").fill(title);
  await dialog.getByRole("button", { name: "Create Achievement" }).click();
  await expect(toast(admin, "Achievement created")).toBeVisible();

  await member.goto("/passport");
  await member.getByRole("button", { name: `Accept ${title}` }).click();
  await expect(toast(member, "Achievement accepted")).toBeVisible();
}

test("an admin proves a domain; the credential page and /verify name it; an organisation of the same name is marked", async ({
  page: admin,
  secondPage: member,
  newPersonPage,
}) => {
  // Four accounts, a DNS check, two credentials and a verification: a long story.
  test.slow();
  const suffix = crypto.randomUUID().slice(0, 6);
  const name = `Örebro Institute ${suffix}`;
  const domain = `orebro-${suffix}.example`;
  const { invitePath } = await createOrganisation(admin, { adminName: "Dana Domain", name });
  await joinAsNewMember(member, invitePath, { name: "Mika Member" });

  await admin.getByRole("link", { name: "Organisation profile" }).click();
  await expect(admin.getByRole("heading", { level: 1, name: "Organisation profile" })).toBeVisible();
  await expect(admin.getByText("No domains yet.")).toBeVisible();

  // The form by keyboard alone: from the page's back link, Tab reaches the field, then the button.
  const field = admin.getByRole("textbox", { name: "Domain", exact: true });
  await admin.getByRole("main").getByRole("link", { name: "Dashboard" }).focus();
  await admin.keyboard.press("Tab");
  await expect(field).toBeFocused();
  await admin.keyboard.type("localhost");
  await admin.keyboard.press("Enter");
  await expect(field).toHaveAccessibleDescription("Enter a domain name, such as acme.example.");
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await field.focus();
  await admin.keyboard.press("ControlOrMeta+a");
  await admin.keyboard.type(domain);
  await admin.keyboard.press("Tab");
  await expect(admin.getByRole("button", { name: "Add domain" })).toBeFocused();
  await admin.keyboard.press("Enter");
  await expect(toast(admin, "Domain added")).toBeVisible();

  const item = admin.getByRole("listitem").filter({ has: admin.getByRole("heading", { name: domain }) });
  await expect(item.getByText("Not verified yet")).toBeVisible();
  const recordName = item.getByRole("textbox", { name: `TXT record name for ${domain}` });
  await expect(recordName).toHaveValue(`_career-passport.${domain}`);
  const recordValue = await item.getByRole("textbox", { name: `TXT record value for ${domain}` }).inputValue();
  expect(recordValue).toMatch(/^career-passport-verification=[A-Za-z0-9_-]{24}$/);
  await expect(item.getByRole("button", { name: "Copy" })).toHaveCount(2);

  // The record with its long token fits a phone.
  await admin.setViewportSize({ width: 375, height: 740 });
  expect(await hasHorizontalScroll(admin)).toBe(false);
  await admin.setViewportSize({ width: 1280, height: 720 });

  // Not published yet: the page says what the lookup found.
  await item.getByRole("button", { name: "Verify domain" }).click();
  await expect(item.getByRole("alert")).toHaveText(`No TXT record found at _career-passport.${domain}.`);

  // Published through the DNS stand-in, as the organisation would with its DNS provider.
  const published = await admin.request.post("/dev/dns.json", {
    data: { name: `_career-passport.${domain}`, type: "TXT", data: recordValue },
  });
  expect(published.status()).toBe(201);
  await item.getByRole("button", { name: "Verify domain" }).click();
  await expect(toast(admin, "Domain verified")).toContainText(`New credentials of your organisation name ${domain}.`);
  await expect(item.getByText("Verified", { exact: true })).toBeVisible();
  await expect(item.getByRole("link", { name: "did-configuration.json" })).toBeVisible();
  await expect(item.getByRole("button", { name: "Verify domain" })).toHaveCount(0);
  await admin.setViewportSize({ width: 375, height: 740 });
  expect(await hasHorizontalScroll(admin)).toBe(false);
  await admin.setViewportSize({ width: 1280, height: 720 });

  await giveAndAccept(admin, member, "Mika Member", "Verified Mentor");
  const verifiedLine = (page: Page) => page.getByText(`Issuer's domain verified: ${domain}`);
  await expect(verifiedLine(member)).toContainText("(last checked");

  // The credential's own page names the domain.
  await member.getByRole("link", { name: "Verify Verified Mentor" }).click();
  await expect(member.getByRole("heading", { level: 1, name: "Verified Mentor" })).toBeVisible();
  await expect(member.getByRole("status").getByRole("heading")).toHaveText("Status: Valid");
  await expect(verifiedLine(member)).toBeVisible();
  await expect(member.getByText("Name not verified")).toHaveCount(0);

  // Its file carries the domain, and /verify, given the file's JSON, names it too.
  const downloading = member.waitForEvent("download");
  await member.getByRole("link", { name: "Download credential" }).click();
  const json = await readFile(await (await downloading).path(), "utf8");
  expect(JSON.parse(json).issuer).toMatchObject({ name, url: `https://${domain}` });
  await member.goto("/verify");
  await member.getByLabel("Or paste the credential JSON").fill(json);
  await member.getByRole("button", { name: "Verify" }).click();
  await expect(member.getByRole("status").getByRole("heading")).toHaveText("Status: Valid");
  const standing = member.getByRole("region", { name: "Who stands behind the issuer" });
  await expect(standing.getByText(`Issuer's domain verified: ${domain}`)).toBeVisible();

  // Another account takes the same name, in capitals and without the accent.
  const impostor = await newPersonPage();
  const copied = `OREBRO INSTITUTE ${suffix.toUpperCase()}`;
  const impostorOrganisation = await createOrganisation(impostor, { adminName: "Ivo Impostor", name: copied });

  // A person looking for the organisation sees which of the two proved its domain.
  const person = await newPersonPage();
  await newAccount(person, { name: "Pia Person" });
  await person.goto("/dashboard");
  await person.getByLabel("Find your organisation").fill(`institute ${suffix}`);
  await person.getByRole("button", { name: "Search" }).click();
  const found = person.getByRole("list", { name: "Organisations found" }).getByRole("listitem");
  await expect(found).toHaveCount(2);
  const real = found.filter({ has: person.getByRole("heading", { name, exact: true }) });
  const copy = found.filter({ has: person.getByRole("heading", { name: copied, exact: true }) });
  await expect(real).toContainText(domain);
  await expect(real.getByText("Name not verified")).toHaveCount(0);
  await expect(copy.getByText("Name not verified")).toBeVisible();
  await expect(copy).not.toContainText(domain);

  // The copy's credentials say so wherever the real one's name its domain.
  await person.goto(impostorOrganisation.invitePath);
  await expect(person.getByRole("heading", { name: "Successfully joined!" })).toBeVisible();
  await expect(person).toHaveURL("/dashboard");
  await giveAndAccept(impostor, person, "Pia Person", "Copied Mentor");
  await person.getByRole("link", { name: "Verify Copied Mentor" }).click();
  await expect(person.getByRole("heading", { level: 1, name: "Copied Mentor" })).toBeVisible();
  await expect(person.getByRole("status").getByRole("heading")).toHaveText("Status: Valid");
  await expect(person.getByText("Name not verified", { exact: true })).toBeVisible();
  await expect(
    person.getByText("Issuer name not verified: the organisation chose this name itself", { exact: true }),
  ).toBeVisible();
  await expect(person.getByText("Issuer's domain verified")).toHaveCount(0);
});
