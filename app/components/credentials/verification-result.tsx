import CircleCheck from "lucide-react/icons/circle-check";
import CircleX from "lucide-react/icons/circle-x";
import { Badge } from "#app/components/ui/badge.tsx";
import type { Check, IssuerStanding, Verdict } from "#app/services/credentials/verification-result.ts";
import { IssuerIdentityLine } from "./issuer-identity.tsx";

const VERDICT_TEXT: Record<Verdict, string> = {
  Valid: "This credential is valid.",
  Revoked: "This credential was revoked by its issuer.",
  Expired: "This credential is genuine, but its validity has ended.",
  Invalid: "This credential could not be verified.",
};

export function VerdictBadge({ verdict }: { verdict: Verdict }) {
  return <Badge variant={verdict === "Valid" ? "default" : "destructive"}>{verdict}</Badge>;
}

/** The verdict, then one plain line per check. */
export function VerificationResult({ verdict, checks }: { verdict: Verdict; checks: Check[] }) {
  return (
    <section aria-labelledby="verification-title" className="grid gap-3" role="status">
      <h2 id="verification-title" className="flex flex-wrap items-center gap-2 text-xl font-semibold">
        Status: <VerdictBadge verdict={verdict} />
      </h2>
      <p>{VERDICT_TEXT[verdict]}</p>
      <CheckList checks={checks} />
    </section>
  );
}

/** One plain line per check, marked passed or failed: /verify's and an import's. */
export function CheckList({ checks }: { checks: { name: string; passed: boolean; detail: string }[] }) {
  return (
    <ul className="grid gap-2">
      {checks.map((check) => (
        <li key={check.name} className="flex items-start gap-2 text-sm">
          {check.passed ? (
            <CircleCheck className="mt-0.5 size-4 shrink-0 text-primary" aria-label="Passed" role="img" />
          ) : (
            <CircleX className="mt-0.5 size-4 shrink-0 text-destructive" aria-label="Failed" role="img" />
          )}
          <span className="min-w-0 break-words">
            <span className="font-medium">{check.name}:</span> {check.detail}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The issuer's identity, then each domain its DID document links, with what checking it found. */
export function IssuerStandingSection({ standing }: { standing: IssuerStanding }) {
  return (
    <section aria-labelledby="issuer-standing-title" className="grid gap-2">
      <h2 id="issuer-standing-title" className="text-lg font-semibold">
        Who stands behind the issuer
      </h2>
      <IssuerIdentityLine identity={standing.identity} />
      {standing.domains.length > 0 ? (
        <ul className="grid gap-2">
          {standing.domains.map((check) => (
            <li key={check.domain} className="flex items-start gap-2 text-sm">
              {check.linked ? (
                <CircleCheck className="mt-0.5 size-4 shrink-0 text-primary" aria-label="Linked" role="img" />
              ) : (
                <CircleX className="mt-0.5 size-4 shrink-0 text-destructive" aria-label="Not linked" role="img" />
              )}
              <span className="min-w-0 break-words">{check.detail}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
