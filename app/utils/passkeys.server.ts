import { getAuthenticatorName } from "@better-auth/passkey";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/browser";
import { z } from "zod";
import { USER_NOT_VERIFIED } from "./auth.server.ts";
import { PASSKEY_NAME_MAX_LENGTH } from "./constants.ts";

// What the app's passkey forms share (docs/decisions/061): the browser's WebAuthn answer as a
// form field, the passkey's name, and the words for the library's refusals.

/** A WebAuthn answer is a few hundred bytes; anything near this is not one. */
const WEBAUTHN_RESPONSE_MAX_LENGTH = 32 * 1024;
const NOT_A_PASSKEY_ANSWER = "The passkey's answer could not be read. Please try again.";

/**
 * The browser's answer to a WebAuthn ceremony, posted as JSON text in the `response` field: read
 * here only as far as being an object with an `id`; the auth library checks every part of it.
 */
function webAuthnResponseField<Answer extends { id: string }>() {
  return z
    .string({ error: NOT_A_PASSKEY_ANSWER })
    .max(WEBAUTHN_RESPONSE_MAX_LENGTH, NOT_A_PASSKEY_ANSWER)
    .transform((text, ctx) => {
      try {
        const value: unknown = JSON.parse(text);
        if (value && typeof value === "object" && typeof (value as { id?: unknown }).id === "string")
          return value as Answer;
      } catch {
        // not JSON: refused below
      }
      ctx.addIssue({ code: "custom", message: NOT_A_PASSKEY_ANSWER });
      return z.NEVER;
    });
}
export const registrationResponseField = webAuthnResponseField<RegistrationResponseJSON>();
export const authenticationResponseField = webAuthnResponseField<AuthenticationResponseJSON>();

export const passkeyNameField = z
  .string()
  .trim()
  .max(PASSKEY_NAME_MAX_LENGTH, `Name must be ${PASSKEY_NAME_MAX_LENGTH} characters or fewer`);

/** How a passkey is called in lists: the person's name for it, else its password manager's, else "Passkey". */
export function passkeyLabel({ name, aaguid }: { name: string | null; aaguid: string | null }) {
  return name || getAuthenticatorName(aaguid ?? undefined) || "Passkey";
}

export const PASSKEY_NOT_VERIFYING =
  "This passkey did not ask for your PIN, fingerprint or face, so it cannot sign you in on its own. Use one that does.";

/** The words for a refusal of the library's passkey endpoints, by its error code. */
export function passkeyRefusal(code: string | undefined, ceremony: "add" | "sign-in") {
  if (code === USER_NOT_VERIFIED) return PASSKEY_NOT_VERIFYING;
  if (code === "CHALLENGE_NOT_FOUND")
    return "The passkey took too long to answer, or another tab asked for it since. Please try again.";
  if (ceremony === "sign-in" && code === "PASSKEY_NOT_FOUND")
    return "This passkey is not registered with your account any more. Sign in with your password instead.";
  return ceremony === "add"
    ? "The passkey could not be added. Please try again."
    : "That passkey could not sign you in. Please try again, or sign in with your password.";
}
