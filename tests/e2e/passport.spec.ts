import { createOrganisation, joinAsNewMember, newAccount, uniqueName } from "./accounts.ts";

/** A real 1×1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);
import { expect, test, toast } from "./fixtures.ts";

const ALEX_ID = "5eed0000-0000-4000-8000-000000000002";

test("an admin gives an achievement; the member accepts it; a visitor sees it; a rejected one never shows", async ({
  page: admin,
  secondPage: member,
  newPersonPage,
}) => {
  // Three people, two gifts with an upload and two answers: the longest journey of the suite, about
  // 25 s on a busy machine against the default 30 s.
  test.slow();
  const { name, invitePath } = await createOrganisation(admin, { adminName: "Gale Admin", name: uniqueName("Givers") });
  await joinAsNewMember(member, invitePath, { name: "Mo Member" });

  for (const title of ["Safety Champion", "Not For Me"]) {
    await admin.reload();
    await admin.getByRole("button", { name: "Give Achievement to Mo Member" }).click();
    const dialog = admin.getByRole("dialog", { name: "Add Achievement" });
    await expect(dialog.getByLabel("Person")).toHaveValue(/.+/);
    await expect(dialog.getByLabel("Type")).toHaveValue("award");
    await dialog.getByLabel("Title").fill(title);
    if (title === "Safety Champion") {
      await dialog
        .getByLabel("Image or video (optional)")
        .setInputFiles({ name: "badge.png", mimeType: "image/png", buffer: PNG });
      await expect(dialog.getByLabel("or Image/Video URL")).toBeDisabled();
    }
    await dialog.getByRole("button", { name: "Create Achievement" }).click();
    await expect(toast(admin, "Achievement created")).toContainText(
      "The person will be notified to accept this achievement.",
    );
  }

  await member.goto("/passport");
  const pending = member
    .getByRole("region", { name: "Pending Achievements" })
    .or(member.locator("section", { has: member.getByRole("heading", { name: "Pending Achievements" }) }));
  await expect(pending.getByText("Safety Champion")).toBeVisible();
  await member.getByRole("button", { name: "Accept Safety Champion" }).click();
  await expect(toast(member, "Achievement accepted")).toBeVisible();
  await member.getByRole("button", { name: "Reject Not For Me" }).click();
  await expect(toast(member, "Achievement rejected")).toBeVisible();
  await expect(member.getByRole("heading", { name: "Pending Achievements" })).toHaveCount(0);

  const visitor = await newPersonPage();
  const memberId = new URL(await member.getByRole("textbox", { name: "Public passport link" }).inputValue()).pathname;
  await visitor.goto(memberId);
  await expect(visitor.getByRole("heading", { name: "Safety Champion" })).toBeVisible();
  const image = visitor.getByRole("article").filter({ hasText: "Safety Champion" }).locator("img");
  await expect(image).toHaveAttribute("src", /^\/media\/achievement-images\//);
  await expect(image).toHaveAttribute("width", "640");
  expect(await image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth)).toBe(1);
  // Exactly: the member's 'Member of …' entry names the organisation too (decision 070).
  await expect(visitor.getByText(name, { exact: true })).toBeVisible();
  await expect(visitor.getByText("Not For Me")).toHaveCount(0);

  // Hidden by its owner, it leaves the public passport.
  await member.getByRole("button", { name: "Hide Safety Champion" }).click();
  await expect(toast(member, "Achievement hidden")).toBeVisible();
  await visitor.reload();
  await expect(visitor.getByRole("heading", { name: `Member of ${name}` })).toBeVisible();
  await expect(visitor.getByText("Safety Champion")).toHaveCount(0);
});

test("a person adds a self achievement and edits the biography", async ({ page }) => {
  await newAccount(page, { name: "Sia Self" });
  await page.goto("/passport");
  await expect(page.getByText("No biography yet. Click Edit to add one.")).toBeVisible();
  await page.getByRole("button", { name: "Edit" }).click();
  await page.getByPlaceholder("Write a short introduction about yourself...").fill("Draft that I will cancel");
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByText("No biography yet. Click Edit to add one.")).toBeVisible();
  await page.getByRole("button", { name: "Edit" }).click();
  await page.getByPlaceholder("Write a short introduction about yourself...").fill("Engineer who likes bridges.");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(toast(page, "Bio updated")).toBeVisible();
  await expect(page.getByText("Engineer who likes bridges.")).toBeVisible();

  await page.getByRole("button", { name: "Add Self Achievement" }).click();
  const dialog = page.getByRole("dialog", { name: "Add Self Achievement" });
  await dialog.getByRole("button", { name: "Add Achievement" }).click();
  await expect(toast(page, "Validation error")).toContainText("Title is required");
  await dialog.getByLabel("Title").fill("Half Marathon");
  await dialog.getByLabel("Company/Organization").fill("City Runners");
  await dialog.getByLabel("Type").selectOption("milestone");
  await dialog.getByRole("button", { name: "Add Achievement" }).click();
  await expect(toast(page, "Achievement added")).toBeVisible();
  const card = page.getByRole("article").filter({ hasText: "Half Marathon" });
  await expect(card.getByText("Self Achievement")).toBeVisible();
  // Stored as 'title - company': the card shows the company on its own line, never as verified.
  await expect(card.getByRole("heading", { name: "Half Marathon", exact: true })).toBeVisible();
  await expect(card.getByText("City Runners", { exact: true })).toBeVisible();
  await expect(card.getByLabel("Verified credential")).toHaveCount(0);
});

test("a person uploads a profile picture", async ({ page }) => {
  await newAccount(page, { name: "Pip Picture" });
  await page.goto("/passport");
  await page.getByLabel("Profile picture").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: PNG });
  await page.getByRole("button", { name: "Upload Picture" }).click();
  await expect(toast(page, "Avatar updated")).toContainText("Your profile picture has been updated successfully");
  await expect(page.getByRole("main").locator("img[src^='/media/avatars/']").first()).toBeVisible();
});

const INTRO_VIDEO = "tests/fixtures/intro.webm";

test("the owner uploads an introduction video from the passport's profile dialog; it plays; Remove clears it", async ({
  page,
  newPersonPage,
}) => {
  await newAccount(page, { name: "Ivy Intro" });
  await page.goto("/passport");
  const passportPath = new URL(await page.getByRole("textbox", { name: "Public passport link" }).inputValue()).pathname;
  await page.goto(passportPath);
  await page.getByRole("button", { name: "Open profile of Ivy Intro" }).click();
  const dialog = page.getByRole("dialog", { name: "Profile & Introduction" });
  await expect(dialog.getByRole("button", { name: "Upload Picture" })).toBeVisible();
  await dialog.getByLabel("Introduction video").setInputFiles(INTRO_VIDEO);
  // The browser makes a JPEG thumbnail of the chosen video before it is sent.
  await expect
    .poll(() => dialog.locator("input[name=thumbnail]").evaluate((input: HTMLInputElement) => input.files?.[0]?.type))
    .toBe("image/jpeg");
  await dialog.getByRole("button", { name: "Upload Video" }).click();
  await expect(toast(page, "Video uploaded")).toContainText("Your introduction video has been updated.");

  const visitor = await newPersonPage();
  await visitor.goto(passportPath);
  const video = visitor.getByLabel("Introduction video").first();
  // The owner's id, then a random id of this upload: a private or archived profile's video cannot be guessed.
  await expect(video).toHaveAttribute("src", /^\/media\/achievement-videos\/intro-[0-9a-f-]{36}-[0-9a-f-]{36}\.webm$/);
  await expect(video).toHaveAttribute("poster", /-thumbnail\.jpg$/);
  await video.evaluate((element: HTMLVideoElement) => {
    element.muted = true;
    return element.play();
  });
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime)).toBeGreaterThan(0.2);

  // The dialog stays open on the new video, with Remove beside it.
  await expect(dialog.getByLabel("Introduction video", { exact: true }).and(dialog.locator("video"))).toBeVisible();
  await dialog.getByRole("button", { name: "Remove" }).click();
  await expect(toast(page, "Video removed")).toContainText("Your introduction video has been removed.");
  await visitor.reload();
  await expect(visitor.getByLabel("Introduction video")).toHaveCount(0);
  await visitor.getByRole("button", { name: "Open profile of Ivy Intro" }).click();
  await expect(visitor.getByRole("dialog").getByText("No introduction video yet")).toBeVisible();
});

test("an achievement image over 5 MB is refused in the browser; the achievement goes without it", async ({ page }) => {
  await newAccount(page, { name: "Finn File" });
  await page.goto("/passport");
  await page.getByRole("button", { name: "Add Self Achievement" }).click();
  const dialog = page.getByRole("dialog", { name: "Add Self Achievement" });
  await dialog.getByLabel("Title").fill("Big Picture");
  await dialog.getByLabel("Company/Organization").fill("Gallery");
  // A PNG one byte over 5 MB.
  const buffer = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024 + 1 - PNG.length)]);
  await dialog
    .getByLabel("Image or video (optional)")
    .setInputFiles({ name: "huge.png", mimeType: "image/png", buffer });
  await expect(toast(page, "File too large")).toContainText("Image must be less than 5MB.");
  await expect(dialog.getByLabel("Image or video (optional)")).toHaveValue("");
  // Cleared, so a link may be given instead.
  await expect(dialog.getByLabel("or Image/Video URL")).toBeEnabled();
  await dialog.getByRole("button", { name: "Add Achievement" }).click();
  await expect(toast(page, "Achievement added")).toBeVisible();
  const card = page.getByRole("article").filter({ hasText: "Big Picture" });
  await expect(card).toBeVisible();
  await expect(card.locator("img, video")).toHaveCount(0);
});

test("an over-long introduction video is refused before it is uploaded", async ({ page }) => {
  await newAccount(page, { name: "Lena Long" });
  await page.goto("/settings", { waitUntil: "networkidle" });
  // As a person does it: the click that opens the file chooser is the page's first interaction,
  // which loads the uploader's code (decision 049); the file is checked whenever it is chosen.
  const chooser = page.waitForEvent("filechooser");
  await page.getByLabel("Introduction video").click();
  await (await chooser).setFiles("tests/fixtures/long.webm");
  await expect(toast(page, "Video too long")).toContainText("Introduction video must be 30 seconds or less.");
  await expect(page.getByLabel("Introduction video")).toHaveValue("");
});

test("a self achievement with a video shows it with a play overlay and its thumbnail", async ({ page }) => {
  await newAccount(page, { name: "Vic Video" });
  await page.goto("/passport");
  await page.getByRole("button", { name: "Add Self Achievement" }).click();
  const dialog = page.getByRole("dialog", { name: "Add Self Achievement" });
  await dialog.getByLabel("Title").fill("Conference Talk");
  await dialog.getByLabel("Company/Organization").fill("DevConf");
  await dialog.getByLabel("Image or video (optional)").setInputFiles(INTRO_VIDEO);
  await expect(dialog.getByLabel("Cover image for a video (optional)")).toBeVisible();
  await expect
    .poll(() => dialog.locator("input[name=thumbnail]").evaluate((input: HTMLInputElement) => input.files?.length))
    .toBe(1);
  await dialog.getByRole("button", { name: "Add Achievement" }).click();
  await expect(toast(page, "Achievement added")).toBeVisible();
  const card = page.getByRole("article").filter({ hasText: "Conference Talk" });
  await expect(card.locator("video")).toHaveAttribute("src", /^\/media\/achievement-videos\/self-achievements\//);
  await expect(card.locator("video")).toHaveAttribute(
    "poster",
    /^\/media\/achievement-images\/self-achievements\/.+\.jpg$/,
  );
});

test("a public passport shows 8 entries and View More reveals the rest", async ({ page }) => {
  await page.goto(`/passport/${ALEX_ID}`);
  await expect(page).toHaveTitle(/Alex Morgan/);
  await expect(page.getByRole("article")).toHaveCount(8);
  await page.getByRole("link", { name: "View More Achievements" }).click();
  await expect(page.getByRole("article")).toHaveCount(10);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false, allowedConsoleErrors: [/status of 404/] });

  test("View More is a link that shows all, and unknown passports are not found", async ({ page }) => {
    await page.goto(`/passport/${ALEX_ID}`);
    await page.getByRole("link", { name: "View More Achievements" }).click();
    await expect(page).toHaveURL(`/passport/${ALEX_ID}?all=1`);
    await expect(page.getByRole("article")).toHaveCount(10);

    const response = await page.goto("/passport/not-a-real-id");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Passport not found" })).toBeVisible();
    await page.getByRole("link", { name: "Go Home" }).click();
    await expect(page).toHaveURL("/");
  });
});
