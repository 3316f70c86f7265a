import { SELF } from "cloudflare:test";
import { clientAuthenticationAnonymous, type Jwk } from "@openid4vc/oauth2";
import { Openid4vciClient, setGlobalConfig } from "@openid4vc/openid4vci";
import { encode as encodeBase58 } from "base58-universal";
import { expect } from "vitest";
import { get, newClientNetwork, postForm } from "./helpers.ts";

// A wallet nobody on this team wrote: the OpenWallet Foundation's OpenID4VCI client
// (@openid4vc/openid4vci, the one Credo's wallets run), inside workerd with the app's own fetch.
// It parses the offer, discovers both metadata documents, trades the code, asks for a nonce and
// builds the credential request; what a wallet keeps to itself (its key and the JWT signature)
// is ours to give it: Web Crypto keys, a did:key written out here from the key's bytes.

// The tests' app is http://localhost; the client refuses plain http unless told.
setGlobalConfig({ allowInsecureUrls: true });

export const CONFIGURATION_ID = "OpenBadgeCredential";

export type WalletKey = { alg: "EdDSA" | "ES256"; did: string; kid: string; publicJwk: Jwk; privateKey: CryptoKey };

const base64Url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
const fromBase64Url = (text: string) =>
  Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (char) => char.charCodeAt(0));

/** A new wallet key (Ed25519 or P-256) and its did:key (multicodec 0xed01 or 0x1200, compressed point). */
export async function walletKey(alg: "EdDSA" | "ES256" = "EdDSA"): Promise<WalletKey> {
  const pair = (
    alg === "EdDSA"
      ? await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"])
      : await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])
  ) as CryptoKeyPair;
  const { kty, crv, x, y } = (await crypto.subtle.exportKey("jwk", pair.publicKey)) as JsonWebKey;
  const publicJwk = { kty: kty!, crv, x, ...(y ? { y } : {}) } as Jwk;
  const xBytes = fromBase64Url(x!);
  const multicodec =
    alg === "EdDSA" ? [0xed, 0x01, ...xBytes] : [0x80, 0x24, 0x02 | (fromBase64Url(y!)[31]! & 1), ...xBytes];
  const fingerprint = `z${encodeBase58(Uint8Array.from(multicodec))}`;
  const did = `did:key:${fingerprint}`;
  return { alg, did, kid: `${did}#${fingerprint}`, publicJwk, privateKey: pair.privateKey };
}

/** A compact JWS of `header` and `payload` signed with `key`. */
export async function signJwt(key: WalletKey, header: object, payload: object) {
  const input = `${base64Url(new TextEncoder().encode(JSON.stringify(header)))}.${base64Url(new TextEncoder().encode(JSON.stringify(payload)))}`;
  const signature = await crypto.subtle.sign(
    key.alg === "EdDSA" ? { name: "Ed25519" } : { name: "ECDSA", hash: "SHA-256" },
    key.privateKey,
    new TextEncoder().encode(input),
  );
  return `${input}.${base64Url(new Uint8Array(signature))}`;
}

/** The wallet: the library, its fetch the app's (from one network per wallet), signing with `key`. */
export function openid4vciWallet(key: WalletKey, network = newClientNetwork()) {
  return new Openid4vciClient({
    callbacks: {
      fetch: (input, init) => {
        const headers = new Headers(init?.headers);
        headers.set("cf-connecting-ip", network);
        return SELF.fetch(input as string, { ...init, headers } as RequestInit);
      },
      signJwt: async (_signer, { header, payload }) => ({
        jwt: await signJwt(key, header, payload),
        signerJwk: key.publicJwk,
      }),
      hash: async (data, alg) =>
        new Uint8Array(await crypto.subtle.digest(alg.toUpperCase(), data as Uint8Array<ArrayBuffer>)),
      generateRandom: (length) => crypto.getRandomValues(new Uint8Array(length)),
      clientAuthentication: clientAuthenticationAnonymous(),
    },
  });
}

/** The person presses 'Add to wallet'; the OpenID4VCI offer link and transaction code their /passport then shows. */
export async function openOffer(cookie: string, achievementId: string) {
  const pressed = await postForm("/passport", { intent: "add-to-wallet", achievementId }, { cookie });
  expect(pressed.status).toBe(302);
  const location = pressed.headers.get("Location")!;
  const html = await (await get(location, cookie)).text();
  const link = /href="(openid-credential-offer:\/\/\?[^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, "&");
  const txCode = /<strong[^>]*>(\d{6})<\/strong>/.exec(html)?.[1];
  expect(link).toBeDefined();
  expect(txCode).toBeDefined();
  return { exchangeId: location.split("=")[1]!, html, link: link!, txCode: txCode! };
}
