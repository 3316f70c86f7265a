import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { createOrganisation, joinAsNewMember, uniqueName } from "./accounts.ts";
import { expect, test, toast } from "./fixtures.ts";

// 'Add to wallet' (issue 31, decision 064) on the person's own /passport: a dialog with the
// Learner Credential Wallet's QR code and link, and the same as a panel without JavaScript.

const TITLE = "Wallet Ready Award";

async function expectNoViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  expect(violations.map(({ id, nodes }) => `${id}: ${nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual(
    [],
  );
}

/** The wallet's deep link as the page offers it. */
async function deepLink(scope: ReturnType<Page["getByRole"]> | Page) {
  const href = await scope.getByRole("link", { name: "Open in the Learner Credential Wallet" }).getAttribute("href");
  const link = new URL(href!);
  expect(link.origin + link.pathname).toBe("https://lcw.app/request.html");
  expect(link.searchParams.get("auth_type")).toBe("bearer");
  expect(link.searchParams.get("vc_request_url")).toMatch(/\/credentials\/exchanges\/[0-9a-f-]{36}$/);
  return link;
}

/** The OpenID4VCI part beside it (decision 065): its QR code, offer link and transaction code. */
async function expectOpenid4vciOffer(scope: ReturnType<Page["getByRole"]>) {
  const part = scope.getByRole("region", { name: "Other wallets (OpenID4VCI)" });
  await expect(part.getByRole("img", { name: `QR code to add ${TITLE} to an OpenID4VCI wallet` })).toBeVisible();
  const href = await part.getByRole("link", { name: "Open in an OpenID4VCI wallet" }).getAttribute("href");
  const offerUri = new URL(href!).searchParams.get("credential_offer_uri");
  expect(href).toMatch(/^openid-credential-offer:\/\/\?credential_offer_uri=/);
  expect(offerUri).toMatch(/\/openid4vci\/offers\/[0-9a-f-]{36}$/);
  await expect(part).toContainText(/enter \d{6}\. The offer works once, for 10 minutes\./);
}

test("a member adds a credential to the wallet: a dialog with JavaScript, a panel without", async ({
  page: admin,
  secondPage: member,
  browser,
  baseURL,
  extraHTTPHeaders,
}) => {
  test.slow();
  const { invitePath } = await createOrganisation(admin, { adminName: "Wanda Wallet", name: uniqueName("Wallets") });
  await joinAsNewMember(member, invitePath, { name: "Walt Holder" });
  await admin.reload();
  await admin.getByRole("button", { name: "Give Achievement to Walt Holder" }).click();
  const give = admin.getByRole("dialog", { name: "Add Achievement" });
  await give.getByLabel("Title").fill(TITLE);
  await give.getByRole("button", { name: "Create Achievement" }).click();
  await expect(toast(admin, "Achievement created")).toBeVisible();
  await member.goto("/passport");
  await member.getByRole("button", { name: `Accept ${TITLE}` }).click();
  await expect(toast(member, "Achievement accepted")).toBeVisible();

  // With JavaScript: a dialog.
  await member.getByRole("button", { name: `Add to wallet: ${TITLE}` }).click();
  const dialog = member.getByRole("dialog", { name: "Add to wallet" });
  await expect(dialog).toBeVisible();
  await expect(
    dialog.getByRole("img", { name: `QR code to add ${TITLE} to the Learner Credential Wallet` }),
  ).toBeVisible();
  await expect(dialog).toContainText("The code works once, for 15 minutes.");
  const first = await deepLink(dialog);
  await expectOpenid4vciOffer(dialog);
  await expectNoViolations(member);
  // A fresh code replaces the first one.
  await dialog.getByRole("button", { name: "Get a new code" }).click();
  await expect
    .poll(async () => (await deepLink(dialog)).searchParams.get("challenge"))
    .not.toBe(first.searchParams.get("challenge"));
  await member.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(member).toHaveURL(/\/passport$/);

  // Without JavaScript: the same post shows the code on the page.
  const context = await browser.newContext({
    baseURL,
    extraHTTPHeaders,
    javaScriptEnabled: false,
    storageState: await member.context().storageState(),
  });
  const plain = await context.newPage();
  await plain.goto("/passport");
  await plain.getByRole("button", { name: `Add to wallet: ${TITLE}` }).click();
  const panel = plain.getByRole("region", { name: "Add to wallet" });
  await expect(panel).toBeVisible();
  await expect(
    panel.getByRole("img", { name: `QR code to add ${TITLE} to the Learner Credential Wallet` }),
  ).toBeVisible();
  await deepLink(panel);
  await expectOpenid4vciOffer(panel);
  const shown = plain.url();
  await panel.getByRole("link", { name: "Close" }).click();
  await expect(plain.getByRole("region", { name: "Add to wallet" })).toHaveCount(0);
  await context.close();

  // axe needs a script of its own: it checks that panel where a browser with JavaScript opens
  // the same address, and the page keeps the server's panel rather than turning it into a dialog.
  await member.goto(shown);
  await expect(member.getByRole("region", { name: "Add to wallet" })).toBeVisible();
  await expectNoViolations(member);
});
