import { newAccount } from "./accounts.ts";
import { expect, test, toast } from "./fixtures.ts";

/** A real 1×1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

// A flash toast that arrives with a whole document (a form posted before the page hydrated, as a
// busy phone does) must show without anyone touching the page, on a page whose forms hydrate on
// first use (decision 049). The live toaster's chunk is held back until the page has hydrated,
// as it is on a slow connection: that is when its toast used to stay hidden until the first touch.
test("a toast that comes with the document shows before the page is touched", async ({ page }) => {
  await newAccount(page, { name: "Tom Toast" });
  await page.goto("/passport");
  await page.getByLabel("Profile picture").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: PNG });
  await page.route(/live-toaster/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await route.continue();
  });
  // The document post of a page not yet hydrated: no script sees it.
  await Promise.all([
    page.waitForURL("**/passport"),
    page.evaluate(() => {
      const form = document.querySelector("input[name=avatar]")!.closest("form") as HTMLFormElement;
      const intent = document.createElement("input");
      intent.type = "hidden";
      intent.name = "intent";
      intent.value = "upload-avatar";
      form.appendChild(intent);
      form.submit();
    }),
  ]);
  await expect(toast(page, "Avatar updated")).toContainText("Your profile picture has been updated successfully");
  await expect(page.getByRole("region", { name: /^Notifications/ }).getByText("Avatar updated")).toBeVisible();
});
