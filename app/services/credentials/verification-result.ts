// What checking a credential found, as /verify and /credentials/{id} show it: a plain module, so
// that the page's component can name these types without importing the verifier.

export type CheckName = "Format" | "Schema" | "Issuer key" | "Signature" | "Status" | "Dates";
export type Check = { name: CheckName; passed: boolean; detail: string };
export type Verdict = "Valid" | "Revoked" | "Invalid";
export type VerificationResult = {
  verdict: Verdict;
  checks: Check[];
  summary?: { issuer: string; achievement: string; validFrom: string; awardedDate?: string };
};
