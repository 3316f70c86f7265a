import { PASSWORD, newAccount } from "./accounts.ts";
import { expect, hasHorizontalScroll, test, toast } from "./fixtures.ts";

test.describe("settings", () => {
  test("profile: edits the name and bio, keeps the email read-only", async ({ page }) => {
    await newAccount(page, { name: "Sam Rivers" });
    await page.goto("/settings");
    await expect(page).toHaveTitle(/Settings/);
    await expect(page.getByLabel("Email", { exact: true })).toBeDisabled();
    await expect(page.getByText("Email cannot be changed here. Contact support to update your email.")).toBeVisible();

    await page.getByLabel("Full Name").fill("");
    await page.getByRole("button", { name: "Save Profile" }).click();
    await expect(toast(page, "Validation error")).toContainText("Name is required");

    await page.getByLabel("Full Name").fill("Samantha Rivers");
    await page.getByLabel("Bio").fill("Nurse and rota wrangler.");
    await page.getByRole("button", { name: "Save Profile" }).click();
    await expect(toast(page, "Profile updated")).toBeVisible();
    await page.reload();
    await expect(page.getByLabel("Full Name")).toHaveValue("Samantha Rivers");
    await expect(page.getByLabel("Bio")).toHaveValue("Nurse and rota wrangler.");
  });

  test("password: mismatch, wrong current password, then success", async ({ page }) => {
    const { email } = await newAccount(page);
    await page.goto("/settings/security");
    const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Update Password" }) });

    await form.getByLabel("Current Password").fill(PASSWORD);
    await form.getByLabel("New Password", { exact: true }).fill("new-password-1");
    await form.getByLabel("Confirm New Password").fill("new-password-2");
    await form.getByRole("button", { name: "Update Password" }).click();
    await expect(toast(page, "Passwords don't match")).toContainText("Please make sure your new passwords match.");

    // Every field again: a post that went before the form hydrated comes back without the
    // passwords (the server never echoes them), one that went through JavaScript keeps them.
    await form.getByLabel("Current Password").fill("not-my-password");
    await form.getByLabel("New Password", { exact: true }).fill("new-password-1");
    await form.getByLabel("Confirm New Password").fill("new-password-1");
    await form.getByRole("button", { name: "Update Password" }).click();
    await expect(toast(page, "Error changing password")).toBeVisible();

    await form.getByLabel("Current Password").fill(PASSWORD);
    await form.getByLabel("New Password", { exact: true }).fill("new-password-1");
    await form.getByLabel("Confirm New Password").fill("new-password-1");
    await form.getByRole("button", { name: "Update Password" }).click();
    await expect(toast(page, "Password updated")).toBeVisible();

    // The cookie banner is still up, and leaves the sidebar's foot free wherever the page stands.
    await expect(page.getByRole("region", { name: "Cookie consent" })).toBeVisible();
    await page.getByRole("complementary", { name: "Sidebar" }).getByRole("button", { name: "Sign Out" }).click();
    await expect(page).toHaveURL("/");
    await page.goto("/auth");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("new-password-1");
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(page).toHaveURL("/dashboard");
  });

  test("the forms load their code on the first interaction, keep what was typed, then check in the browser", async ({
    page,
  }) => {
    await newAccount(page, { name: "Sam Rivers" });
    // Once the test starts typing, the forms' chunk is held until the test lets it go: typing
    // happens while the forms are still the server's markup (decision 049).
    let holding = false;
    let letGo = () => {};
    const held = new Promise<void>((resolve) => (letGo = resolve));
    const chunkRequests: string[] = [];
    await page.route(/\/assets\/profile-forms-[\w-]+\.js$/, async (route) => {
      chunkRequests.push(route.request().url());
      if (holding) await held;
      await route.continue();
    });
    await page.goto("/settings", { waitUntil: "networkidle" });
    await expect(page.getByTitle("Toggle sidebar (Ctrl+B)")).toBeVisible();
    expect(chunkRequests, "nothing asked for the forms' code before anyone used the page").toEqual([]);

    holding = true;
    const bio = page.getByLabel("Bio");
    await bio.click();
    await bio.pressSequentially("Typed before the code came.");
    expect(chunkRequests).toHaveLength(1);
    const posts: string[] = [];
    page.on("request", (request) => request.method() === "POST" && posts.push(request.url()));
    letGo();
    // Hydrated in place: React owns the field now, and what was typed is still there.
    await page.waitForFunction(() =>
      Object.keys(document.getElementById("update-profile") ?? {}).some((key) => key.startsWith("__react")),
    );
    await expect(bio).toHaveValue("Typed before the code came.");

    await page.getByLabel("Full Name").fill("");
    await page.getByLabel("Full Name").press("Tab");
    await expect(page.getByText("Name is required")).toBeVisible();
    expect(posts, "the browser checked the field; nothing was sent").toEqual([]);
  });

  test("a page update that comes before the forms' code leaves working forms and no error", async ({ page }) => {
    await newAccount(page);
    let letGo = () => {};
    const held = new Promise<void>((resolve) => (letGo = resolve));
    await page.route(/\/assets\/profile-forms-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto("/settings", { waitUntil: "networkidle" });
    await expect(page.getByTitle("Toggle sidebar (Ctrl+B)")).toBeVisible();
    // Ctrl+B is the first interaction (the forms' code is asked for, and held) and saves the
    // sidebar's state, after which the page's data is loaded again: an update for the forms.
    const reloaded = page.waitForResponse((response) => response.url().includes("/settings.data"));
    await page.keyboard.press("Control+b");
    await reloaded;
    letGo();
    await page.getByLabel("Full Name").fill("");
    await page.getByLabel("Full Name").press("Tab");
    await expect(page.getByText("Name is required")).toBeVisible();
  });

  test("reached from the sidebar, the forms are ready at once", async ({ page }) => {
    await newAccount(page);
    await page.goto("/passport");
    await page.getByRole("complementary", { name: "Sidebar" }).getByRole("link", { name: "Settings" }).click();
    await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
    const posts: string[] = [];
    page.on("request", (request) => request.method() === "POST" && posts.push(request.url()));
    await page.getByLabel("Full Name").fill("");
    await page.getByLabel("Full Name").press("Tab");
    await expect(page.getByText("Name is required")).toBeVisible();
    expect(posts).toEqual([]);
  });

  test("storage: shows what the person's files use of their 1 GB, after an upload too", async ({ page }) => {
    await newAccount(page, { name: "Stella Storage" });
    await page.goto("/settings/data");
    const meter = page.getByRole("meter", { name: "Storage used" });
    await expect(meter).toHaveAttribute("aria-valuetext", "0 bytes of 1 GB used");
    await expect(page.getByText("0 bytes of 1 GB used")).toBeVisible();
    // The video is uploaded on the profile section; the meter is in 'Your data'.
    await page.goto("/settings");
    await page.getByLabel("Introduction video").setInputFiles("tests/fixtures/intro.webm");
    await page.getByRole("button", { name: "Upload Video" }).click();
    await expect(toast(page, "Video uploaded")).toBeVisible();
    await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Your data" }).click();
    // The video (13 KB), with the browser's thumbnail of it when the page's code made one.
    await expect(meter).toHaveAttribute("aria-valuetext", /^\d+(\.\d)? KB of 1 GB used$/);
    await expect(page.getByText(/^\d+(\.\d)? KB of 1 GB used$/)).toBeVisible();
  });

  test("beta feedback is sent", async ({ page }) => {
    await newAccount(page);
    await page.goto("/settings");
    await page.getByLabel("Your feedback").fill("Love the timeline.");
    await page.getByLabel("5").check();
    await page.getByRole("button", { name: "Send Feedback" }).click();
    await expect(toast(page, "Feedback sent")).toBeVisible();
  });

  test("archive signs out after 2 seconds; signing in again reactivates; purge deletes everything", async ({
    page,
  }) => {
    // Two timed waits (the sign-out after archiving, the pending sign-out behind the dialog) and
    // three sign-ins: on a shared machine this passes 30 s.
    test.slow();
    const { email } = await newAccount(page, { name: "Alex Gone" });
    await page.goto("/settings/danger");
    await page.getByRole("button", { name: "Archive Account" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Archive your account?" });
    await expect(dialog).toContainText("Hides your profile");
    await expect(dialog).toContainText("Removes your organisation memberships");
    await dialog.getByRole("button", { name: "Archive Account" }).click();
    await expect(page.getByRole("heading", { name: "Account Archived" })).toBeVisible();
    await expect(page).toHaveURL("/", { timeout: 6000 });

    // Signing in again offers the choice; Reactivate brings the account back.
    await page.goto("/auth");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(page.getByRole("heading", { name: "Account Archived" })).toBeVisible();
    await page.getByRole("button", { name: "Reactivate" }).click();
    await expect(page).toHaveURL("/dashboard");
    await expect(toast(page, "Welcome back")).toBeVisible();

    // Archive again, and this time delete everything before the sign-out.
    await page.goto("/settings/danger");
    await page.getByRole("button", { name: "Archive Account" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Archive Account" }).click();
    await page.getByRole("button", { name: "Permanently Delete All Data" }).click();
    const purge = page.getByRole("alertdialog", { name: "Permanently delete all data?" });
    await expect(purge).toContainText("This cannot be undone.");
    await page.waitForTimeout(2500); // the pending sign-out waits while the dialog is open
    await purge.getByLabel("Current Password").fill(PASSWORD);
    await purge.getByRole("button", { name: "Delete Everything" }).click();
    await expect(page.getByRole("heading", { name: "Account Purged" })).toBeVisible();
    await expect(page).toHaveURL("/", { timeout: 6000 });

    await page.goto("/auth");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(page.getByRole("alert")).toContainText("Invalid email or password");
  });
});

test.describe("settings without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("archive and purge work through confirmation pages", async ({ page }) => {
    await newAccount(page);
    await page.goto("/settings/danger");
    await page.getByRole("link", { name: "Archive Account" }).click();
    await expect(page).toHaveURL("/settings/danger?confirm=archive");
    await page
      .getByRole("region", { name: "Archive your account?" })
      .getByRole("button", { name: "Archive Account" })
      .click();
    await expect(page.getByRole("heading", { name: "Account Archived" })).toBeVisible();
    await page.getByRole("link", { name: "Permanently Delete All Data" }).click();
    await page.getByLabel("Current Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Delete Everything" }).click();
    await expect(page.getByRole("heading", { name: "Account Purged" })).toBeVisible();
  });
});

test.describe("navigation shell", () => {
  test("Ctrl+B collapses the sidebar and the choice survives a reload", async ({ page }) => {
    await newAccount(page);
    await page.goto("/dashboard");
    const sidebar = page.getByRole("complementary", { name: "Sidebar" });
    await expect(sidebar).toBeVisible();
    await expect(sidebar.getByText("Signed in as")).toBeVisible();
    // The shortcut listens once the page has hydrated, when the toggle becomes a script button.
    await expect(page.getByTitle("Toggle sidebar (Ctrl+B)")).toBeVisible();
    const saved = page.waitForResponse(
      (response) => response.url().includes("/preferences") && response.request().method() === "POST",
    );
    await page.keyboard.press("Control+b");
    await expect(sidebar).toBeHidden();
    await saved;
    await page.reload();
    await expect(page.getByRole("heading", { name: /Welcome/ })).toBeVisible();
    await expect(sidebar).toBeHidden();
    await expect(page.getByTitle("Toggle sidebar (Ctrl+B)")).toBeVisible();
    await page.keyboard.press("Control+b");
    await expect(sidebar).toBeVisible();
  });

  test("under 768px the menu is a slide-over panel and the page does not scroll sideways", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await newAccount(page);
    await page.goto("/settings");
    expect(await hasHorizontalScroll(page)).toBe(false);
    await expect(page.getByRole("complementary", { name: "Sidebar" })).toBeHidden();
    await page.getByRole("button", { name: "Toggle sidebar" }).click();
    const panel = page.getByRole("dialog", { name: "Navigation" });
    await expect(panel).toBeVisible();
    await panel.getByRole("link", { name: "Dashboard" }).click();
    await expect(page).toHaveURL("/dashboard");
    await expect(panel).toBeHidden();
    expect(await hasHorizontalScroll(page)).toBe(false);
  });
});

for (const javaScriptEnabled of [true, false]) {
  test.describe(`sessions ${javaScriptEnabled ? "with" : "without"} JavaScript`, () => {
    test.use({ javaScriptEnabled });

    test("lists the person's other browser and signs it out there", async ({ page, secondPage }) => {
      const { email } = await newAccount(page);
      // The same person signs in on a second browser.
      await secondPage.goto("/auth");
      await secondPage.getByLabel("Email").fill(email);
      await secondPage.getByLabel("Password").fill(PASSWORD);
      await secondPage.getByRole("button", { name: "Sign In", exact: true }).click();
      await expect(secondPage).toHaveURL("/dashboard");

      await page.goto("/settings/sessions");
      const sessions = page.getByRole("list", { name: "Active sessions" });
      await expect(sessions.getByRole("listitem")).toHaveCount(2);
      await expect(sessions).toContainText("This browser");
      // The device is named from the browser's user agent, on the server.
      await expect(sessions).toContainText(/Chrome on \w+/);
      await expect(page.getByRole("button", { name: "Sign out everywhere else" })).toBeVisible();

      await sessions.getByRole("button", { name: /^Sign out / }).click();
      await expect(toast(page, "That session has ended.")).toBeVisible();
      await expect(sessions.getByRole("listitem")).toHaveCount(1);
      await expect(page.getByRole("button", { name: "Sign out everywhere else" })).toHaveCount(0);

      await secondPage.goto("/settings/sessions");
      await expect(secondPage).toHaveURL(/\/auth\?redirectTo=%2Fsettings%2Fsessions/);
    });
  });
}

test.describe("settings sections", () => {
  const SECTIONS = [
    { name: "Profile", path: "/settings", heading: "Profile Settings" },
    { name: "Security", path: "/settings/security", heading: "Change Password" },
    { name: "Addresses", path: "/settings/addresses", heading: "Other e-mail addresses" },
    { name: "Sessions", path: "/settings/sessions", heading: "Sessions" },
    { name: "Your data", path: "/settings/data", heading: "Your Data" },
    { name: "Danger zone", path: "/settings/danger", heading: "Danger Zone" },
  ];

  test("a navigation landmark links every section, marks the current one, and works from the keyboard", async ({
    page,
  }) => {
    await newAccount(page);
    await page.goto("/settings");
    const nav = page.getByRole("navigation", { name: "Settings sections" });
    for (const section of SECTIONS) {
      await nav.getByRole("link", { name: section.name, exact: true }).click();
      await expect(page).toHaveURL(section.path);
      await expect(page.getByRole("heading", { name: section.heading, exact: true })).toBeVisible();
      await expect(nav.getByRole("link", { name: section.name, exact: true })).toHaveAttribute("aria-current", "page");
      await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);
    }
    // Keyboard: focus the first link and press Enter on the next one.
    await nav.getByRole("link", { name: "Profile", exact: true }).focus();
    await page.keyboard.press("Tab");
    await expect(nav.getByRole("link", { name: "Security", exact: true })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL("/settings/security");
  });

  test("at 375px the sections wrap and the page does not scroll sideways, in dark mode too", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.emulateMedia({ colorScheme: "dark" });
    await newAccount(page);
    for (const section of SECTIONS) {
      await page.goto(section.path);
      await expect(page.getByRole("navigation", { name: "Settings sections" })).toBeVisible();
      expect(await hasHorizontalScroll(page)).toBe(false);
    }
  });
});
