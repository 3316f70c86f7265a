import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import RefreshCw from "lucide-react/icons/refresh-cw";
import ShieldCheck from "lucide-react/icons/shield-check";
import ShieldOff from "lucide-react/icons/shield-off";
import { ConfirmAction } from "#app/components/confirm-action.tsx";
import { Field } from "#app/components/settings/field.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { cn } from "#app/utils/cn.ts";
import { formatLongDate } from "#app/utils/dates.ts";
import { expiryText, isExpired, proposedRenewal, renewalHistoryText } from "#app/utils/expiry.ts";
import { useFormReply } from "#app/utils/form-reply.ts";
import { useHydrated } from "#app/utils/use-hydrated.ts";
import { useSubmissionKey } from "#app/utils/use-submission-key.ts";

export type GivenAchievement = {
  id: string;
  title: string;
  date: string;
  status: "pending" | "accepted" | "rejected";
  recipientName: string;
  credentialId: string | null;
  revokedAt: Date | string | null;
  validUntil: string | null;
  renewalCount: number;
  firstGivenOn: string | null;
  renewedBy: string | null;
};
type Filter = "expiring" | "expired" | null;

const STATUS_LABELS = { pending: "Pending", accepted: "Accepted", rejected: "Declined" } as const;
const FILTERS: { value: Filter; label: string }[] = [
  { value: null, label: "All" },
  { value: "expiring", label: "Expiring in 30 days" },
  { value: "expired", label: "Expired" },
];
const EMPTY: Record<"all" | "expiring" | "expired", string> = {
  all: "No achievements given yet.",
  expiring: "Nothing expires in the next 30 days.",
  expired: "No achievement has expired.",
};

/** The list's filters as plain links (they work without JavaScript and can be shared). */
export function GivenFilters({ filter }: { filter: Filter }) {
  return (
    <nav aria-label="Filter given achievements" className="flex flex-wrap gap-2">
      {FILTERS.map((option) => (
        <Link
          key={option.label}
          to={option.value ? `?filter=${option.value}` : "."}
          aria-current={option.value === filter ? "page" : undefined}
          className={buttonVariants({ size: "sm", variant: option.value === filter ? "default" : "outline" })}
        >
          {option.label}
        </Link>
      ))}
    </nav>
  );
}

/**
 * The achievements an organisation gave, newest first (or by expiry, filtered), a page at a time;
 * each credential can be revoked, and an accepted entry with an expiry renewed.
 */
export function GivenAchievements({
  rows,
  today,
  filter,
  filters,
  pager,
}: {
  rows: GivenAchievement[];
  today: string;
  filter: Filter;
  filters: ReactNode;
  pager: ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Given achievements</CardTitle>
        <CardDescription>
          Accepted achievements carry a verifiable credential. Revoking one removes it from the member&apos;s passport
          and makes its credential verify as revoked. An achievement with an expiry can be renewed: the member accepts
          the renewal as usual.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {filters}
        {rows.length === 0 ? (
          <p className="text-muted-foreground">{EMPTY[filter ?? "all"]}</p>
        ) : (
          <ul className="divide-y">
            {rows.map((row) => (
              <GivenRow key={row.id} row={row} today={today} />
            ))}
          </ul>
        )}
        {pager}
      </CardContent>
    </Card>
  );
}

function GivenRow({ row, today }: { row: GivenAchievement; today: string }) {
  const renewable = row.status === "accepted" && !row.revokedAt && !row.renewedBy && Boolean(row.validUntil);
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="font-medium break-words">{row.title}</p>
        <p className="text-sm break-words text-muted-foreground">
          {row.recipientName} · <time dateTime={row.date}>{formatLongDate(row.date)}</time>
        </p>
        {row.validUntil ? (
          <p
            className={cn(
              "text-sm",
              isExpired(row.validUntil, today) && !row.renewedBy
                ? "font-medium text-destructive"
                : "text-muted-foreground",
            )}
          >
            {expiryText(row.validUntil, today)}
            {row.renewedBy ? " · Renewed" : null}
          </p>
        ) : null}
        {row.renewalCount > 0 && row.firstGivenOn ? (
          <p className="text-sm text-muted-foreground">{renewalHistoryText(row.renewalCount, row.firstGivenOn)}</p>
        ) : null}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {row.revokedAt ? (
          <Badge variant="destructive">Revoked</Badge>
        ) : (
          <Badge variant={row.status === "accepted" ? "default" : "outline"}>{STATUS_LABELS[row.status]}</Badge>
        )}
        {row.credentialId ? (
          <Link
            to={`/credentials/${row.credentialId}`}
            aria-label={`Credential for ${row.title}`}
            className={buttonVariants({ size: "sm", variant: "ghost" })}
          >
            <ShieldCheck aria-hidden /> Credential
          </Link>
        ) : null}
        {renewable ? <RenewAction row={row} today={today} /> : null}
        {row.credentialId && !row.revokedAt ? (
          <ConfirmAction
            id={row.credentialId}
            intent="revoke"
            fields={{ credentialId: row.credentialId }}
            triggerSize="sm"
            trigger={
              <>
                <ShieldOff aria-hidden /> Revoke
              </>
            }
            title={`Revoke "${row.title}"?`}
            description={`${row.recipientName} loses this achievement from their passport, and its credential verifies as revoked everywhere. This cannot be undone.`}
            confirm="Revoke credential"
          />
        ) : null}
      </div>
    </li>
  );
}

/** 'Renew': the same achievement again with a new 'Valid until', which the member accepts as usual. */
function RenewAction({ row, today }: { row: GivenAchievement; today: string }) {
  const formId = `renew-${row.id}`;
  const reply = useFormReply(formId);
  const errors = reply?.result?.error ?? {};
  const typed = reply?.result?.initialValue?.validUntil;
  const submissionKey = useSubmissionKey();
  const hydrated = useHydrated();
  return (
    <ConfirmAction
      id={formId}
      intent="renew"
      fields={{
        achievementId: row.id,
        submissionKey,
        timeZone: hydrated ? Intl.DateTimeFormat().resolvedOptions().timeZone : "",
      }}
      triggerVariant="outline"
      triggerSize="sm"
      confirmVariant="default"
      trigger={
        <>
          <RefreshCw aria-hidden /> Renew
        </>
      }
      title={`Renew "${row.title}"?`}
      description={`${row.recipientName} is asked to accept the renewal. Once accepted, it replaces this one on their passport, with its history.`}
      confirm="Renew"
    >
      <Field
        id={`${formId}-valid-until`}
        name="validUntil"
        label="Valid until"
        type="date"
        defaultValue={typeof typed === "string" ? typed : proposedRenewal(row.validUntil, today)}
        errors={errors.validUntil ?? reply?.result?.error?.[""] ?? undefined}
      />
    </ConfirmAction>
  );
}
