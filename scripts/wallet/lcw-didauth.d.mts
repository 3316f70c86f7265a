// Types of lcw-didauth.mjs for the TypeScript tests that use it (tests/workers/lcw-wallet.ts).
export type DidAuthRequest = {
  challenge: string;
  domain?: string;
  version?: 1 | 2;
  suite?: "Ed25519Signature2020" | "eddsa-rdfc-2022";
  /** "unlisted": signed by another key that claims to be one of the DID's (the DID lists only its own). */
  signer?: "holder" | "unlisted";
  /** A did:web holder on this host instead of a new did:key; its DID document comes back to publish. */
  webHost?: string;
  /** 64 hex digits: the same did:key on every request that gives it (one wallet, signing again). */
  seed?: string;
};
export function lcwWallet(): Promise<{
  didAuth(
    request: DidAuthRequest,
  ): Promise<{ did: string; presentation: Record<string, unknown>; didDocument?: Record<string, unknown> }>;
  verifyDidAuth(request: {
    presentation: object;
    challenge: string;
    domain?: string;
  }): Promise<{ verified: boolean; error?: string }>;
}>;
