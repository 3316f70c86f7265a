import type { Page } from "@playwright/test";
import { E2E_HOSTILE_VALUES } from "../hostile-inputs.ts";
import { createOrganisation, newAccount } from "./accounts.ts";
import { expect, test, toast } from "./fixtures.ts";

// Hostile values typed into the real forms come back exactly as typed, as text: no script runs
// (no dialog opens) and the Content-Security-Policy never has to block anything.

const [scriptTag, breakout, eventHandler, entities, jsUrl, rightToLeft, zeroWidth, emoji, sql] = E2E_HOSTILE_VALUES as [
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
];

/** Fails the test on any dialog, and records CSP violations the page reports. */
async function guard(page: Page) {
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.addInitScript(() => {
    (window as unknown as { cspViolations: string[] }).cspViolations = [];
    document.addEventListener("securitypolicyviolation", (event) => {
      (window as unknown as { cspViolations: string[] }).cspViolations.push(
        `${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`,
      );
    });
  });
  return async () => {
    expect(dialogs).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
  };
}

test("a person's hostile name, bio and achievement show exactly as typed, on every page, and never run", async ({
  page,
  newPersonPage,
}) => {
  const check = await guard(page);
  await newAccount(page, { name: breakout });

  await page.goto("/passport");
  await page.getByRole("button", { name: "Edit" }).click();
  await page.getByPlaceholder("Write a short introduction about yourself...").fill(scriptTag);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(toast(page, "Bio updated")).toBeVisible();

  await page.getByRole("button", { name: "Add Self Achievement" }).click();
  const dialog = page.getByRole("dialog", { name: "Add Self Achievement" });
  await dialog.getByLabel("Title").fill(eventHandler);
  await dialog.getByLabel("Company/Organization").fill(sql);
  await dialog.getByLabel("Description (optional)").fill(`${entities} ${jsUrl} ${rightToLeft} ${zeroWidth} ${emoji}`);
  await dialog.getByRole("button", { name: "Add Achievement" }).click();
  await expect(toast(page, "Achievement added")).toBeVisible();

  const shown = [
    breakout,
    scriptTag,
    // A self achievement's card shows its title and its company ('title - company') apart.
    eventHandler,
    sql,
    `${entities} ${jsUrl} ${rightToLeft} ${zeroWidth} ${emoji}`,
  ];
  for (const value of shown) await expect(page.getByText(value, { exact: true }).first()).toBeVisible();
  const passportPath = new URL(await page.getByRole("textbox", { name: "Public passport link" }).inputValue()).pathname;

  await page.goto("/settings");
  await expect(page.getByLabel("Full Name")).toHaveValue(breakout);
  await expect(page.getByLabel("Bio")).toHaveValue(scriptTag);
  await page.getByLabel("Your feedback").fill(`${scriptTag} ${sql}`);
  await page.getByRole("button", { name: "Send Feedback" }).click();
  await expect(toast(page, "Feedback sent")).toBeVisible();
  await check();

  // A visitor's page has no script at all; the values are text there too.
  const visitor = await newPersonPage();
  const checkVisitor = await guard(visitor);
  await visitor.goto(passportPath);
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText(breakout);
  for (const value of shown)
    await expect(visitor.getByText(value, { exact: true }).filter({ visible: true }).first()).toBeVisible();
  await checkVisitor();
});

test("a hostile organisation name shows as typed on the dashboard and in search", async ({ page, newPersonPage }) => {
  const name = `${rightToLeft} ${breakout}`;
  const check = await guard(page);
  await createOrganisation(page, { adminName: "Olga Org", name });
  await expect(page.getByText(name, { exact: true }).first()).toBeVisible();
  await check();

  const person = await newPersonPage();
  const checkPerson = await guard(person);
  await newAccount(person, { name: "Sid Searcher" });
  await person.goto(`/dashboard?q=${encodeURIComponent(breakout)}`);
  await expect(person.getByText(name, { exact: true }).first()).toBeVisible();
  await checkPerson();
});
