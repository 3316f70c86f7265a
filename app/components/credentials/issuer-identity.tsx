import CircleAlert from "lucide-react/icons/circle-alert";
import CircleCheck from "lucide-react/icons/circle-check";
import CircleX from "lucide-react/icons/circle-x";
import GlobeCheck from "lucide-react/icons/globe-check";
import { Badge } from "#app/components/ui/badge.tsx";
import { cn } from "#app/utils/cn.ts";
import { formatShortDate } from "#app/utils/dates.ts";
import { DOMAIN_VERIFIED_TEXT, NAME_NOT_VERIFIED_TEXT, type IssuerIdentity } from "#app/utils/issuer-identity.ts";
import type { IssuerStanding } from "#app/services/credentials/verification-result.ts";

/**
 * Who stands behind an issuer's name, in words (decision 055): its verified domain with when it
 * was last checked, or that the name is only what the organisation typed, marked "Name not
 * verified" when an organisation with a verified domain has the same name.
 */
export function IssuerIdentityLine({
  identity,
  className = "text-sm",
}: {
  identity: IssuerIdentity;
  /** Its text size among the rest (text-sm unless given): two sizes on one element would conflict. */
  className?: string;
}) {
  const { verifiedDomain } = identity;
  if (verifiedDomain) {
    return (
      <p className={cn("flex items-start gap-1.5", className)}>
        <GlobeCheck className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
        <span className="min-w-0 break-words">
          {DOMAIN_VERIFIED_TEXT}: <span className="font-medium">{verifiedDomain.domain}</span>{" "}
          <span className="text-muted-foreground">(last checked {formatShortDate(verifiedDomain.checkedAt)})</span>
        </span>
      </p>
    );
  }
  return (
    <p className={cn("flex flex-wrap items-center gap-1.5 text-muted-foreground", className)}>
      {identity.nameNotVerified ? (
        <Badge variant="destructive">
          <CircleAlert aria-hidden /> Name not verified
        </Badge>
      ) : null}
      <span className="min-w-0 break-words">{NAME_NOT_VERIFIED_TEXT}</span>
    </p>
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
