// Types of outside-issuer.mjs for the TypeScript tests that use it (tests/workers/outside-issuer.ts).
type Served = { status: number; contentType: string; body: string };
export type JwtAlgorithm = "EdDSA" | "ES256" | "RS256";
export type CredentialRequest = {
  version?: 1 | 2;
  suite?: "eddsa-rdfc-2022" | "Ed25519Signature2020";
  email?: string;
  salt?: string;
  subjectDid?: string;
  validFrom?: string;
  validUntil?: string;
  /**
   * A status list at `url` (index 7 is the credential's), that bit set when `revoked`: Bitstring
   * for VC 2.0, Status List 2021 for VC 1.1; of `length` entries (131,072, 16 KB, unless said).
   */
  status?: { url: string; revoked?: boolean; length?: number };
  /** A did:web issuer on this host instead of a new did:key; its DID document comes back among the documents. */
  webHost?: string;
  achievementType?: string;
  name?: string;
  /** The issuer's name in its Profile (default "Example Badge Issuer"). */
  issuerName?: string;
};
export type OpenBadge2Request = {
  kind?: "hosted" | "signed";
  email: string;
  host?: string;
  expires?: string;
  revoked?: boolean;
  tamper?: boolean;
};
export function outsideIssuer(): Promise<{
  credential(request: CredentialRequest): Promise<{
    credential: Record<string, unknown>;
    issuer: string;
    documents: Record<string, Served>;
    /** With `status`: the same list signed once this credential is revoked, to publish later. */
    revokedLater: Record<string, Served>;
  }>;
  jwt(request: {
    email?: string;
    salt?: string;
    validUntil?: string;
    signer?: "issuer" | "other";
    alg?: JwtAlgorithm;
    /** A did:web issuer on this host (its key a JsonWebKey2020) instead of a new did:key. */
    webHost?: string;
    /** The credential's own `issuer` (vc.issuer), when it is to differ from the token's `iss`. */
    claimedIssuer?: string | { id?: string; type?: readonly string[]; name: string };
  }): Promise<{ token: string; issuer: string; documents: Record<string, Served>; publicJwk: JsonWebKey }>;
  verifyJwt(request: { token: string; jwk?: JsonWebKey }): Promise<{ verified: boolean; error?: string }>;
  openBadge2(
    request: OpenBadge2Request,
  ): Promise<{ assertion?: Record<string, unknown>; token?: string; documents: Record<string, Served> }>;
  /** A PNG (base64) with `text` baked in an iTXt chunk: a grey square, or the PNG `onto` (base64). */
  bakePng(request: { text: string; compressed?: boolean; onto?: string }): string;
  bakeSvg(request: { text: string; asVerify?: boolean }): string;
}>;
