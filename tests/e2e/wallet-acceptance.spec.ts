import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";
import { lcwWallet } from "../workers/lcw-wallet.ts";
import { createOrganisation, joinAsNewMember, uniqueName } from "./accounts.ts";
import { expect, test, toast } from "./fixtures.ts";

// 'Accept with my wallet' and Settings' wallet keys (issue 31, decision 066): the dialog with
// the Learner Credential Wallet's QR code and link, the same as a panel without JavaScript, the
// wallet's DIDAuth signed in Node by the wallet's own libraries (tests/workers/lcw-wallet.ts)
// and posted as the wallet posts it; then the key in Settings, forgotten.

const SIGNED = "Signed With Wallet";
const PLAIN = "Signed Without Script";

async function expectNoViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  expect(violations.map(({ id, nodes }) => `${id}: ${nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual(
    [],
  );
}

/** The wallet scans the code: signs a DIDAuth over its challenge and posts it to its exchange. */
async function walletSigns(scope: Locator, baseURL: string) {
  const href = await scope.getByRole("link", { name: "Open in the Learner Credential Wallet" }).getAttribute("href");
  const link = new URL(href!);
  const { didAuth } = await lcwWallet();
  const { did, presentation } = await didAuth({ challenge: link.searchParams.get("challenge")! });
  // The exchange on the server under test, whatever origin the link names.
  const url = new URL(new URL(link.searchParams.get("vc_request_url")!).pathname, baseURL);
  const answer = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(presentation),
  });
  expect(answer.status).toBe(200);
  return did;
}

test("a member accepts by signing with the wallet, then forgets the wallet's key in Settings", async ({
  page: admin,
  secondPage: member,
  browser,
  baseURL,
  extraHTTPHeaders,
}) => {
  test.slow();
  const { invitePath } = await createOrganisation(admin, { adminName: "Sig Giver", name: uniqueName("Signers") });
  await joinAsNewMember(member, invitePath, { name: "Sally Signer" });
  await admin.reload();
  for (const title of [SIGNED, PLAIN]) {
    await admin.getByRole("button", { name: "Give Achievement to Sally Signer" }).click();
    const give = admin.getByRole("dialog", { name: "Add Achievement" });
    await give.getByLabel("Title").fill(title);
    await give.getByRole("button", { name: "Create Achievement" }).click();
    await expect(toast(admin, "Achievement created")).toBeVisible();
    await expect(give).toBeHidden();
  }

  // With JavaScript: a dialog, which learns of the wallet's answer from the person's notification
  // socket. The page's clock is stopped while it waits, so no timer (no polling) can be what tells it.
  await member.clock.install();
  await member.goto("/passport");
  await member.getByRole("button", { name: `Accept with my wallet: ${SIGNED}` }).click();
  const dialog = member.getByRole("dialog", { name: "Accept with my wallet" });
  await expect(dialog).toBeVisible();
  await expect(
    dialog.getByRole("img", { name: `QR code to accept ${SIGNED} with the Learner Credential Wallet` }),
  ).toBeVisible();
  await expect(dialog).toContainText("The code works once, for 15 minutes.");
  await expectNoViolations(member);
  await member.clock.pauseAt(await member.evaluate(() => Date.now() + 1000));
  const did = await walletSigns(dialog, baseURL!);
  await expect(dialog).toContainText(`You accepted “${SIGNED}” with your wallet.`, { timeout: 15_000 });
  await expect(dialog).toContainText(did);
  await member.clock.resume();
  await dialog.getByRole("link", { name: "Done" }).click();
  await expect(dialog).toBeHidden();
  await expect(member.getByRole("list", { name: "Your achievements" })).toContainText(SIGNED);

  // Without JavaScript: the same post shows a panel; 'check again' shows the answer.
  const context = await browser.newContext({
    baseURL,
    extraHTTPHeaders,
    javaScriptEnabled: false,
    storageState: await member.context().storageState(),
  });
  const plain = await context.newPage();
  await plain.goto("/passport");
  await plain.getByRole("button", { name: `Accept with my wallet: ${PLAIN}` }).click();
  const panel = plain.getByRole("region", { name: "Accept with my wallet" });
  await expect(panel).toBeVisible();
  await expect(
    panel.getByRole("img", { name: `QR code to accept ${PLAIN} with the Learner Credential Wallet` }),
  ).toBeVisible();
  const shown = plain.url();
  const plainDid = await walletSigns(panel, baseURL!);
  await panel.getByRole("link", { name: "I have signed: check again" }).click();
  await expect(panel).toContainText(`You accepted “${PLAIN}” with your wallet.`);

  // axe checks that panel where a browser with JavaScript opens the same address.
  await member.goto(shown);
  await expect(member.getByRole("region", { name: "Accept with my wallet" })).toBeVisible();
  await expectNoViolations(member);

  // Settings lists both keys with their credentials; without JavaScript, one is forgotten.
  await plain.goto("/settings/data");
  const keys = plain.getByRole("list", { name: "Wallet keys" });
  await expect(keys.getByRole("list", { name: `Credentials issued to ${did}` })).toContainText(SIGNED);
  await expect(keys.getByRole("list", { name: `Credentials issued to ${plainDid}` })).toContainText(PLAIN);
  await keys.getByRole("button", { name: `Forget this key: ${plainDid}` }).click();
  await expect(plain.getByRole("button", { name: `Forget this key: ${plainDid}` })).toHaveCount(0);
  await context.close();

  // With JavaScript: the list passes axe, forgetting says so, and the credential's page names the signer.
  await member.goto("/settings/data");
  await expect(member.getByRole("heading", { name: "Wallet keys" })).toBeVisible();
  await expectNoViolations(member);
  await member
    .getByRole("list", { name: `Credentials issued to ${did}` })
    .getByRole("link", { name: SIGNED })
    .click();
  await expect(member.getByText(`Accepted by the holder, signed by ${did}, on`)).toBeVisible();
  await expectNoViolations(member);
  await member.goto("/settings/data");
  await member.getByRole("button", { name: `Forget this key: ${did}` }).click();
  await expect(toast(member, "Wallet key forgotten")).toBeVisible();
  await expect(member.getByText("No credential has been issued to a wallet yet.")).toBeVisible();
});
