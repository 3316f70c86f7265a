import { OTHER_ADDRESS } from "./import-result.ts";

/**
 * Whether a badge was issued to this person: an e-mail identity (plain, or hashed as
 * `sha256$hex` of the address and the salt, as Open Badges 2.0 and 3.0 both hash it) that is one
 * of their addresses, or a subject DID that is one of their wallet DIDs.
 */

export type Recipient = { addresses: readonly string[]; holderDids: readonly string[] };
export type EmailIdentity = { hashed: boolean; identity: string; salt?: string };
/** `walletDid`: the wallet DID it was issued to, proved for this import (passed) or not (failed). */
export type RecipientCheck = { passed: boolean; detail: string; walletDid?: string };

const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");

async function sha256Hex(text: string) {
  return hex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

/** The first address whose hash (or plain value) is the identity, or null; unsupported hashes match nothing. */
export async function matchingAddress(identity: EmailIdentity, addresses: readonly string[]) {
  const candidates = [...new Set(addresses.flatMap((address) => [address.trim(), address.trim().toLowerCase()]))];
  if (!identity.hashed) {
    const plain = identity.identity
      .trim()
      .toLowerCase()
      .replace(/^mailto:/, "");
    return candidates.find((address) => address.toLowerCase() === plain) ?? null;
  }
  const match = /^sha256\$([0-9a-f]{64})$/i.exec(identity.identity.trim());
  if (!match) return null;
  for (const address of candidates) {
    if ((await sha256Hex(address + (identity.salt ?? ""))) === match[1]!.toLowerCase()) return address;
  }
  return null;
}

/**
 * The Recipient check over what the credential names: its e-mail identities and its subject id.
 * An unsupported hash is said so; an e-mail that matches none of the addresses gets the sentence.
 */
export async function checkRecipient(
  named: { emails: EmailIdentity[]; subjectId?: string | null; otherKind?: string | null },
  recipient: Recipient,
): Promise<RecipientCheck> {
  for (const email of named.emails) {
    const address = await matchingAddress(email, recipient.addresses);
    if (address) return { passed: true, detail: `Issued to your address ${address}.` };
  }
  const subject = named.subjectId?.trim();
  if (subject?.startsWith("mailto:")) {
    const address = await matchingAddress({ hashed: false, identity: subject }, recipient.addresses);
    if (address) return { passed: true, detail: `Issued to your address ${address}.` };
    return { passed: false, detail: OTHER_ADDRESS };
  }
  if (subject?.startsWith("did:") && recipient.holderDids.includes(subject)) {
    return { passed: true, detail: `Issued to your wallet DID ${subject}.`, walletDid: subject };
  }
  if (named.emails.length) {
    const unsupported = named.emails.every((email) => email.hashed && !/^sha256\$/i.test(email.identity.trim()));
    return {
      passed: false,
      detail: unsupported
        ? "The recipient's e-mail is hashed with an algorithm this app does not check (only SHA-256)."
        : OTHER_ADDRESS,
    };
  }
  if (subject?.startsWith("did:")) {
    return {
      passed: false,
      detail: `This credential was issued to ${subject}, which is not one of your wallet DIDs.`,
      walletDid: subject,
    };
  }
  if (named.otherKind) {
    return {
      passed: false,
      detail: `This badge was issued to a ${named.otherKind}, not an e-mail address; it cannot be matched to you.`,
    };
  }
  return { passed: false, detail: "The credential does not say whom it was issued to." };
}
