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
