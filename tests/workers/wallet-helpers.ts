import { SELF } from "cloudflare:test";
import { inject } from "vitest";
import { newClientNetwork } from "./helpers.ts";
import type { Credential } from "./credentials-helpers.ts";

// The Learner Credential Wallet's side of an exchange (tests/workers/lcw-wallet.ts, in Node): its
// DIDAuth signed by the wallet's own libraries, posted as the wallet posts it.

export type WalletAsk = {
  challenge: string;
  domain?: string;
  version?: 1 | 2;
  suite?: "Ed25519Signature2020" | "eddsa-rdfc-2022";
  signer?: "holder" | "unlisted";
  webHost?: string;
  /** 64 hex digits: the same did:key each time (one wallet signing again). */
  seed?: string;
};

/** A wallet's DIDAuth, signed by the wallet's libraries for a new did:key (or a did:web on `webHost`). */
export async function walletDidAuth(ask: WalletAsk) {
  const response = await fetch(`${inject("lcwWalletUrl")}/didauth`, { method: "POST", body: JSON.stringify(ask) });
  if (!response.ok) throw new Error(await response.text());
  return (await response.json()) as { did: string; presentation: Credential; didDocument?: object };
}

/** A DIDAuth checked by `@digitalcredentials/vc`'s `verify` with its authentication purpose. */
export async function vcVerifyDidAuth(asked: { presentation: unknown; challenge: string; domain?: string }) {
  const response = await fetch(`${inject("lcwWalletUrl")}/verify`, { method: "POST", body: JSON.stringify(asked) });
  if (!response.ok) throw new Error(await response.text());
  return (await response.json()) as { verified: boolean; error?: string };
}

/** Posts to the exchange as the wallet's `requestCredential` does (app/lib/credentialRequest.ts). */
export function postPresentation(url: string, presentation: unknown, headers: Record<string, string> = {}) {
  return SELF.fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", "cf-connecting-ip": newClientNetwork(), ...headers },
    body: JSON.stringify(presentation),
  });
}
