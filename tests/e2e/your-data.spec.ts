import { readFile } from "node:fs/promises";
import { strFromU8, unzipSync } from "fflate";
import type { Page } from "@playwright/test";
import { newAccount } from "./accounts.ts";
import { expect, hasHorizontalScroll, test, toast } from "./fixtures.ts";
import { today } from "../today.ts";

// Taking the passport out: the data export and résumé from Settings, printing the public
// passport, and what a shared link shows to chat apps and LinkedIn.

async function addSelfAchievements(page: Page, titles: string[]) {
  for (const title of titles) {
    const response = await page.request.post("/passport", {
      form: { intent: "add-self-achievement", formId: "self", title, company: "Acme", date: today(), type: "award" },
    });
    expect(response.ok()).toBe(true);
  }
}

async function ownId(page: Page) {
  await page.goto("/passport");
  const href = await page.getByRole("link", { name: "View public passport" }).getAttribute("href");
  return href!.split("/").pop()!;
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`download my data (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("Settings downloads one ZIP with data.json, resume.json and the person's rows", async ({ page }) => {
      const { email } = await newAccount(page, { name: "Dana Download" });
      await addSelfAchievements(page, ["Exported Award"]);
      await page.goto("/settings/data");
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: "Download my data" }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^career-passport-\d{4}-\d{2}-\d{2}\.zip$/);
      const files = unzipSync(new Uint8Array(await readFile((await download.path())!)));
      expect(Object.keys(files)).toEqual(expect.arrayContaining(["data.json", "resume.json"]));
      const data = JSON.parse(strFromU8(files["data.json"]!));
      expect(data.profile).toMatchObject({ email, fullName: "Dana Download" });
      expect(data.achievementsReceived).toEqual([
        expect.objectContaining({ title: "Exported Award - Acme", status: "accepted" }),
      ]);
      const resume = JSON.parse(strFromU8(files["resume.json"]!));
      expect(resume.basics.name).toBe("Dana Download");
      // The page is still there to use.
      await expect(page.getByRole("heading", { name: "Settings", exact: true })).toBeVisible();

      const [resumeDownload] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("link", { name: "Download résumé (JSON)" }).click(),
      ]);
      expect(resumeDownload.suggestedFilename()).toBe("resume.json");
      const alone = JSON.parse(await readFile((await resumeDownload.path())!, "utf8"));
      expect(alone.awards).toEqual([{ title: "Exported Award - Acme", date: today() }]);
    });
  });
}

test.describe("printing the public passport", () => {
  test("print media hides navigation, banner and call to action, and shows every achievement", async ({
    page,
    newPersonPage,
  }) => {
    await newAccount(page, { name: "Pia Print" });
    const titles = Array.from({ length: 10 }, (_, index) => `Printed ${index + 1}`);
    await addSelfAchievements(page, titles);
    const id = await ownId(page);

    // A visitor (cookie banner and all) prints the whole passport.
    const visitor = await newPersonPage();
    await visitor.goto(`/passport/${id}?all=1`);
    await expect(visitor.getByRole("link", { name: "Create Your Passport" })).toBeVisible();
    await visitor.emulateMedia({ media: "print" });
    await expect(visitor.getByRole("link", { name: "Create Your Passport" })).toBeHidden();
    await expect(visitor.getByRole("banner")).toBeHidden();
    await expect(visitor.getByRole("region", { name: /cookie/i })).toBeHidden();
    // A self achievement's card shows its title as the heading and the company on its own line.
    for (const title of titles) await expect(visitor.getByRole("heading", { name: title, exact: true })).toBeVisible();
    await expect(visitor.getByText(`Pia Print's career passport, kept up to date at`)).toBeVisible();

    // The first page (8 on screen) prints all 10 too, as a passport of at most 50 does (issue 32):
    // no pointer to the print view (above 50 it stays, tests/workers/passport-print.test.ts).
    await visitor.goto(`/passport/${id}`);
    await expect(visitor.getByRole("link", { name: "View More Achievements" })).toBeHidden();
    for (const title of titles) await expect(visitor.getByRole("heading", { name: title, exact: true })).toBeVisible();
    await expect(visitor.getByText(/more achievements: http/)).toHaveCount(0);
  });

  test("'Print or save as PDF' on the own passport opens the print view and the print dialog", async ({ page }) => {
    await page.addInitScript(() => {
      window.print = () => {
        (window as unknown as { printed: boolean }).printed = true;
      };
    });
    await newAccount(page, { name: "Omar Owner" });
    await addSelfAchievements(
      page,
      Array.from({ length: 9 }, (_, index) => `Mine ${index + 1}`),
    );
    const id = await ownId(page);
    await page.getByRole("link", { name: "Print or save as PDF" }).click();
    await expect(page).toHaveURL(`/passport/${id}/print`);
    await expect.poll(() => page.evaluate(() => (window as unknown as { printed?: boolean }).printed)).toBe(true);
    await expect(page.getByRole("heading", { name: "Mine 1", exact: true })).toBeVisible();
  });
});

test("a shared passport link carries Open Graph tags and a PNG card", async ({ page, request }) => {
  await newAccount(page, { name: "Sam Shared" });
  await addSelfAchievements(page, ["Shared Award"]);
  const id = await ownId(page);
  // As a link preview bot fetches it: no cookies, no scripts.
  const html = await (await request.get(`/passport/${id}`)).text();
  const base = new URL(page.url()).origin;
  expect(html).toContain('<meta property="og:title" content="Sam Shared · Career Passport"/>');
  expect(html).toContain('<meta property="og:type" content="profile"/>');
  expect(html).toContain(`<meta property="og:image" content="${base}/passport/${id}/card.png"/>`);
  expect(html).toContain('<meta name="twitter:card" content="summary_large_image"/>');
  const card = await request.get(`/passport/${id}/card.png`);
  expect(card.status()).toBe(200);
  expect(card.headers()["content-type"]).toBe("image/png");
});

test("Privacy and Emails: 'Show in search engines' off asks search engines to skip the passport; fits a 375px phone", async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await newAccount(page, { name: "Nina Noindex" });
  const id = await ownId(page);
  expect(await hasHorizontalScroll(page)).toBe(false);
  await page.goto("/settings");
  expect(await hasHorizontalScroll(page)).toBe(false);
  const searchEngines = page.getByRole("checkbox", { name: "Show in search engines" });
  const emails = page.getByRole("checkbox", { name: "Email me when an organisation recognises me" });
  await expect(searchEngines).toBeChecked();
  await expect(emails).toBeChecked();
  await searchEngines.uncheck();
  await page.getByRole("button", { name: "Save Preferences" }).click();
  await expect(toast(page, "Preferences saved")).toBeVisible();
  await page.reload();
  await expect(searchEngines).not.toBeChecked();
  await expect(emails).toBeChecked();
  const html = await (await request.get(`/passport/${id}`)).text();
  expect(html).toContain('<meta name="robots" content="noindex"/>');
});
