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
    constructor(options: { cryptosuite: unknown });
  }
}
declare module "@digitalcredentials/eddsa-rdfc-2022-cryptosuite" {
  export const cryptosuite: unknown;
}
