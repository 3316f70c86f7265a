import { Badge } from "#app/components/ui/badge.tsx";
import { cn } from "#app/utils/cn.ts";
import { formatShortDate } from "#app/utils/dates.ts";
import {
  DOMAIN_VERIFIED_TEXT,
  IMPORTED_NAME_NOT_VERIFIED_TEXT,
  NAME_NOT_VERIFIED_TEXT,
  type IssuerIdentity,
} from "#app/utils/issuer-identity.ts";

/**
 * Who stands behind an issuer's name, in words (decision 055): its verified domain with when it
 * was last checked, or that the name is only what the organisation (or an imported credential's
 * issuer, issue 43) chose, marked "Name not verified" when an organisation with a verified domain
 * has the same name.
 */
export function IssuerIdentityLine({
  identity,
  compact = false,
  imported = false,
}: {
  identity: IssuerIdentity;
  compact?: boolean;
  /** An imported credential's issuer (issue 43): its name is the issuer's own choice, not an organisation's here. */
  imported?: boolean;
}) {
  const { verifiedDomain } = identity;
  const size = compact ? "text-xs" : "text-sm";
  if (verifiedDomain) {
    return (
      <p className={cn("flex items-start gap-1.5", size)}>
        <span className="min-w-0 break-words">
          {DOMAIN_VERIFIED_TEXT}: <span className="font-medium">{verifiedDomain.domain}</span>{" "}
          <span className="text-muted-foreground">(last checked {formatShortDate(verifiedDomain.checkedAt)})</span>
        </span>
      </p>
    );
  }
  return (
    <p className={cn("flex flex-wrap items-center gap-1.5 text-muted-foreground", size)}>
      {identity.nameNotVerified ? <Badge variant="destructive">Name not verified</Badge> : null}
      <span className="min-w-0 break-words">{imported ? IMPORTED_NAME_NOT_VERIFIED_TEXT : NAME_NOT_VERIFIED_TEXT}</span>
    </p>
  );
}
