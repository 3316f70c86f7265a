declare module "cloudflare:test" {
  interface ProvidedEnv extends Env {
    TEST_MIGRATIONS: D1Migration[];
  }
}

// The JSON Resume project's validator (CommonJS, untyped): the published schema and a checker.
declare module "@jsonresume/schema" {
  export function validate(resume: unknown, callback: (errors: unknown[] | null, valid: boolean) => void): void;
  export const schema: Record<string, unknown>;
}

// The DCC's verification engine, which @digitalcredentials/verifier-core runs inside (untyped).
declare module "@digitalcredentials/vc" {
  export function verifyCredential(options: {
    credential: unknown;
    suite: unknown;
    documentLoader: unknown;
  }): Promise<{ verified: boolean; log?: { id: string; valid: boolean }[]; error?: Error }>;
}
declare module "@digitalcredentials/data-integrity" {
  export class DataIntegrityProof {
    constructor(options: { cryptosuite: unknown; signer?: unknown });
  }
}
declare module "@digitalcredentials/eddsa-rdfc-2022-cryptosuite" {
  export const cryptosuite: unknown;
}

// What the Learner Credential Wallet signs its DIDAuth with (tests/workers/lcw-wallet.ts; untyped).
declare module "@digitalcredentials/vc" {
  export function createPresentation(options: { holder?: string; version?: number }): Record<string, unknown>;
  export function signPresentation(options: {
    presentation: unknown;
    suite: unknown;
    challenge: string;
    domain?: string;
    documentLoader: unknown;
  }): Promise<Record<string, unknown>>;
  // A stored DIDAuth checked as anyone can (decision 066): AuthenticationProofPurpose over challenge and domain.
  export function verify(options: {
    presentation: unknown;
    challenge: string;
    domain?: string;
    suite: unknown;
    documentLoader: unknown;
  }): Promise<{ verified: boolean; error?: Error }>;
}
declare module "@digitalcredentials/ed25519-verification-key-2020" {
  export class Ed25519VerificationKey2020 {
    static generate(): Promise<Ed25519VerificationKey2020>;
    static from(options: unknown): Promise<Ed25519VerificationKey2020>;
    id: string;
    controller: string;
    fingerprint(): string;
    signer(): unknown;
  }
}
declare module "@digitalcredentials/ed25519-signature-2020" {
  export class Ed25519Signature2020 {
    constructor(options?: { key: unknown });
  }
}
declare module "@digitalcredentials/did-method-key" {
  export function driver(): {
    use(options: { multibaseMultikeyHeader: string; fromMultibase: unknown }): void;
    fromKeyPair(options: { verificationKeyPair: unknown }): Promise<{
      didDocument: { id: string };
      methodFor(options: {
        purpose: string;
      }): import("@digitalcredentials/ed25519-verification-key-2020").Ed25519VerificationKey2020;
    }>;
  };
}
