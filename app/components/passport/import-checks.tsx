import CircleCheck from "lucide-react/icons/circle-check";
import CircleX from "lucide-react/icons/circle-x";
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
      <ul className="grid gap-2">
        {outcome.checks.map((check) => (
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
    </section>
  );
}
