import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/browser";

// The browser's side of passkeys (docs/decisions/061): the WebAuthn ceremonies, through
// @simplewebauthn/browser, loaded only when a ceremony starts (no page's first load carries it).
// Each returns the browser's answer as the JSON text the forms post in their `response` field.

/** Whether this browser can use passkeys at all. */
export const passkeysSupported = () =>
  typeof window !== "undefined" && typeof window.PublicKeyCredential === "function";

/** Whether this browser offers passkeys in the autofill of the sign-in form's e-mail field. */
export async function passkeyAutofillSupported() {
  if (!passkeysSupported()) return false;
  return (await PublicKeyCredential.isConditionalMediationAvailable?.().catch(() => false)) ?? false;
}

/** Creates a passkey with the server's options (in answer to a click). */
export async function createPasskey(optionsJSON: PublicKeyCredentialCreationOptionsJSON) {
  const { startRegistration } = await import("@simplewebauthn/browser");
  return JSON.stringify(await startRegistration({ optionsJSON }));
}

/**
 * Signs with a passkey the person picks: from a dialog, or (`autofill`) from the e-mail field's
 * suggestions, waiting until they pick one. Starting another ceremony cancels a waiting one.
 */
export async function signWithPasskey(optionsJSON: PublicKeyCredentialRequestOptionsJSON, { autofill = false } = {}) {
  const { startAuthentication } = await import("@simplewebauthn/browser");
  return JSON.stringify(await startAuthentication({ optionsJSON, useBrowserAutofill: autofill }));
}

/**
 * What to tell the person when a ceremony failed in the browser, or null when there is nothing to
 * say (another ceremony took its place).
 */
export function ceremonyFailure(error: unknown, ceremony: "add" | "sign-in") {
  const { name, code } = (error ?? {}) as { name?: string; code?: string };
  if (name === "AbortError" || code === "ERROR_CEREMONY_ABORTED") return null;
  if (ceremony === "add" && (name === "InvalidStateError" || code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED"))
    return "This device or password manager already holds a passkey for your account.";
  if (name === "NotAllowedError")
    return ceremony === "add"
      ? "No passkey was created: the request was cancelled or timed out."
      : "No passkey was used: the request was cancelled or timed out.";
  return ceremony === "add"
    ? "Your browser could not create a passkey here."
    : "Your browser could not use a passkey here.";
}

/** Where a page asks for a passkey's challenge (app/routes/auth_.passkey-options.ts). */
const PASSKEY_OPTIONS_PATH = "/auth/passkey-options";

/**
 * A sign-in challenge for this browser, to confirm with a passkey (the step-up page, removing a
 * passkey): the options, or an error whose `code` is "OPTIONS" and message says why not.
 */
export async function passkeyOptions() {
  const response = await fetch(PASSKEY_OPTIONS_PATH, { method: "POST" });
  const body = (await response.json().catch(() => ({}))) as PublicKeyCredentialRequestOptionsJSON & {
    message?: string;
  };
  if (!response.ok) throw Object.assign(new Error(body.message ?? "No passkey options"), { code: "OPTIONS" });
  return body;
}
