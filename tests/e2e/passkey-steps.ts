import type { Page } from "@playwright/test";
import { PASSWORD } from "./accounts.ts";

/**
 * An authenticator that keeps passkeys and verifies the person (as a fingerprint would). One that
 * cannot verify the person gets no passkey from Chromium at all (a discoverable passkey needs it),
 * so the server's refusal of such a passkey is tested in tests/workers/passkeys.test.ts.
 */
export async function virtualAuthenticator(page: Page) {
  const session = await page.context().newCDPSession(page);
  await session.send("WebAuthn.enable");
  await session.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      ctap2Version: "ctap2_1",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

/** Settings' 'Add a passkey': the password and a name, 'Continue', then 'Create passkey'. */
export async function addPasskey(page: Page, name: string) {
  await page.goto("/settings/security");
  const card = page.locator("#passkeys");
  await card.getByLabel("Current Password").fill(PASSWORD);
  await card.getByLabel("Name (optional)").fill(name);
  await card.getByRole("button", { name: "Continue" }).click();
  await card.getByRole("button", { name: "Create passkey" }).click();
}

/**
 * Makes the page's browser one without passkey autofill. Chromium's virtual authenticator answers
 * an autofill request at once, as if the person had picked the passkey; a test of the button (or
 * of the sign-in page as it stays) needs the autofill out of the way.
 */
export async function withoutPasskeyAutofill(page: Page) {
  await page.addInitScript(() => {
    PublicKeyCredential.isConditionalMediationAvailable = async () => false;
  });
}
