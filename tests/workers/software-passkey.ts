import { encodeCBOR, type CBORType } from "@levischuck/tiny-cbor";

// A passkey held in memory, answering WebAuthn ceremonies as an authenticator does (P-256, "none"
// attestation): for the Workers tests, where no browser is. Its answers are checked by the auth
// library's WebAuthn verifier (@simplewebauthn/server); the Playwright tests use Chromium's own
// virtual authenticator instead.

const encoder = new TextEncoder();
const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
const fromBase64url = (text: string) =>
  Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (char) => char.charCodeAt(0));
const sha256 = async (bytes: Uint8Array) =>
  new Uint8Array(await crypto.subtle.digest("SHA-256", new Uint8Array(bytes)));
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) out.set(part, (at += part.length) - part.length);
  return out;
};
const uint32 = (value: number) => Uint8Array.of(value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255);

/** An ECDSA signature as WebAuthn carries it: DER, from Web Crypto's r‖s. */
function derSignature(raw: Uint8Array) {
  const integer = (bytes: Uint8Array) => {
    let start = 0;
    while (start < bytes.length - 1 && bytes[start] === 0) start++;
    const trimmed = bytes.slice(start);
    const value = trimmed[0]! & 0x80 ? concat(Uint8Array.of(0), trimmed) : trimmed;
    return concat(Uint8Array.of(0x02, value.length), value);
  };
  const body = concat(integer(raw.slice(0, 32)), integer(raw.slice(32)));
  return concat(Uint8Array.of(0x30, body.length), body);
}

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_ATTESTED_CREDENTIAL = 0x40;

type CreationOptions = { challenge: string; rp: { id?: string }; user: { id: string } };
type RequestOptions = { challenge: string; rpId?: string };

/**
 * A new authenticator. `userVerified: false` is one that only checks presence (a security key
 * without a PIN). `origin` is the page the browser would say the ceremony ran on.
 */
export async function softwarePasskey({
  origin = "http://localhost",
  userVerified = true,
}: { origin?: string; userVerified?: boolean } = {}) {
  const keys = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
    "sign",
    "verify",
  ])) as CryptoKeyPair;
  const jwk = (await crypto.subtle.exportKey("jwk", keys.publicKey)) as JsonWebKey;
  const credentialId = crypto.getRandomValues(new Uint8Array(16));
  const id = base64url(credentialId);
  let counter = 0;
  let userHandle = "";
  const flags = FLAG_USER_PRESENT | (userVerified ? FLAG_USER_VERIFIED : 0);
  const clientData = (type: string, challenge: string) =>
    encoder.encode(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

  return {
    id,
    /** The answer to 'Add a passkey' (navigator.credentials.create), as the browser posts it. */
    async create(options: CreationOptions) {
      userHandle = options.user.id;
      const coseKey = encodeCBOR(
        new Map<number, number | Uint8Array>([
          [1, 2], // kty: EC2
          [3, -7], // alg: ES256
          [-1, 1], // crv: P-256
          [-2, fromBase64url(jwk.x!)],
          [-3, fromBase64url(jwk.y!)],
        ]),
      );
      const authData = concat(
        await sha256(encoder.encode(options.rp.id ?? new URL(origin).hostname)),
        Uint8Array.of(flags | FLAG_ATTESTED_CREDENTIAL),
        uint32(counter),
        new Uint8Array(16), // AAGUID: none
        Uint8Array.of(credentialId.length >> 8, credentialId.length & 255),
        credentialId,
        coseKey,
      );
      const attestationObject = encodeCBOR(
        new Map<string, CBORType>([
          ["fmt", "none"],
          ["attStmt", new Map()],
          ["authData", authData],
        ]),
      );
      return JSON.stringify({
        id,
        rawId: id,
        type: "public-key",
        response: {
          clientDataJSON: base64url(clientData("webauthn.create", options.challenge)),
          attestationObject: base64url(attestationObject),
          transports: ["internal"],
        },
        clientExtensionResults: {},
        authenticatorAttachment: "platform",
      });
    },
    /** The answer to a sign-in (navigator.credentials.get), as the browser posts it. */
    async sign(options: RequestOptions) {
      counter += 1;
      const authData = concat(
        await sha256(encoder.encode(options.rpId ?? new URL(origin).hostname)),
        Uint8Array.of(flags),
        uint32(counter),
      );
      const clientDataJSON = clientData("webauthn.get", options.challenge);
      const signed = concat(authData, await sha256(clientDataJSON));
      const signature = new Uint8Array(
        await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, keys.privateKey, signed),
      );
      return JSON.stringify({
        id,
        rawId: id,
        type: "public-key",
        response: {
          clientDataJSON: base64url(clientDataJSON),
          authenticatorData: base64url(authData),
          signature: base64url(derSignature(signature)),
          userHandle,
        },
        clientExtensionResults: {},
        authenticatorAttachment: "platform",
      });
    },
  };
}
