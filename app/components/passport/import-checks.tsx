import { CheckList } from "#app/components/credentials/verification-result.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import type { ImportOutcome } from "#app/services/imports/import-result.ts";

const STATUS_TEXT: Record<ImportOutcome["status"], string> = {
  verified: "Every check passed.",
  expired: "Every check passed, but it has expired: it can be added and shows as Expired.",
  refused: "It cannot be imported.",
};

/** What checking an import found: its verdict, its reason when refused, then one plain line per check. */
export function ImportChecks({ outcome }: { outcome: ImportOutcome }) {
  return (
    <section aria-labelledby="import-checks-title" className="grid gap-3" role="status">
      <h3 id="import-checks-title" className="flex flex-wrap items-center gap-2 font-semibold">
        Checks:
        <Badge variant={outcome.status === "refused" ? "destructive" : "default"}>
          {outcome.status === "verified" ? "Verified" : outcome.status === "expired" ? "Expired" : "Refused"}
        </Badge>
        {outcome.format ? <span className="text-sm font-normal text-muted-foreground">{outcome.format}</span> : null}
      </h3>
      <p>{STATUS_TEXT[outcome.status]}</p>
      {outcome.status === "refused" ? (
        <p role="alert" className="font-medium break-words text-destructive">
          {outcome.reason}
        </p>
      ) : null}
      <CheckList checks={outcome.checks} />
    </section>
  );
}
