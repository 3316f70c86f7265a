import AxeBuilder from "@axe-core/playwright";
import { outsideIssuer } from "../../scripts/badges/outside-issuer.mjs";
import { lcwWallet } from "../workers/lcw-wallet.ts";
import { newAccount } from "./accounts.ts";
import { expect, test, toast } from "./fixtures.ts";

// 'Prove with my wallet' (issue 43, decision 099), on a phone: a credential issued to the
// person's wallet DID is refused until that wallet signs a DIDAuth made for this import (the
// Learner Credential Wallet's own libraries, in Node), then checked again and added.

// The badge's image is on the issuer's host, which this machine cannot reach.
test.use({ viewport: { width: 375, height: 812 }, allowedConsoleErrors: [/Failed to load resource: net::ERR_/] });

test("a credential issued to a wallet DID is added once the wallet proves it is the person's", async ({
  page,
  baseURL,
}) => {
  await newAccount(page, { name: "Wanda Wallet" });
  const { didAuth } = await lcwWallet();
  const seed = crypto.randomUUID().replaceAll("-", "").repeat(2);
  const { did } = await didAuth({ challenge: "which DID", seed });
  const issuer = await outsideIssuer();
  const { credential } = await issuer.credential({ subjectDid: did, name: "Wallet Skills" });

  await page.goto("/passport/import");
  await page.getByLabel("Or paste its JSON, JWT or address").fill(JSON.stringify(credential));
  await page.getByRole("button", { name: "Check" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    `This credential was issued to ${did}, which is not one of your wallet DIDs.`,
  );
  await expect(page.getByRole("button", { name: "Add to passport" })).toHaveCount(0);
  await page.getByRole("button", { name: "Prove with my wallet" }).click();

  await expect(page.getByRole("heading", { name: "Prove with my wallet" })).toBeVisible();
  const proof = page.locator("main");
  await expect(proof.getByRole("img", { name: /QR code to prove your wallet/ })).toBeVisible();
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  expect(violations.map((violation) => violation.id)).toEqual([]);
  // Nothing is wider than the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

  // The wallet scans the code and signs.
  const link = new URL(
    (await proof.getByRole("link", { name: "Open in the Learner Credential Wallet" }).getAttribute("href"))!,
  );
  const { presentation } = await didAuth({ challenge: link.searchParams.get("challenge")!, seed });
  const exchange = new URL(new URL(link.searchParams.get("vc_request_url")!).pathname, baseURL);
  const answer = await fetch(exchange, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(presentation),
  });
  expect(answer.status).toBe(200);

  await proof.getByRole("link", { name: "I have signed: check again" }).click();
  await expect(page.getByText(`Issued to your wallet DID ${did}.`)).toBeVisible();
  await page.getByRole("button", { name: "Add to passport" }).click();
  await expect(toast(page, "Credential added")).toBeVisible();
  await expect(page).toHaveURL(/\/passport$/);
});
