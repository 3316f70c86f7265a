// What checking a credential found, as /verify and /credentials/{id} show it: a plain module, so
// that the page's component can name these types without importing the verifier.

import type { IssuerIdentity } from "#app/utils/issuer-identity.ts";

export type CheckName = "Format" | "Schema" | "Issuer key" | "Signature" | "Status" | "Dates";
export type Check = { name: CheckName; passed: boolean; detail: string };
export type Verdict = "Valid" | "Revoked" | "Expired" | "Invalid";
/** Who stands behind the issuer's name: one verified domain or none, and each linked domain's check. */
export type IssuerStanding = {
  identity: IssuerIdentity;
  domains: { domain: string; linked: boolean; detail: string }[];
};
export type VerificationResult = {
  verdict: Verdict;
  checks: Check[];
  summary?: { issuer: string; achievement: string; validFrom: string; awardedDate?: string; validUntil?: string };
  /** Only for a credential whose signature verified: nothing a forged one names is looked up. */
  issuer?: IssuerStanding;
};
