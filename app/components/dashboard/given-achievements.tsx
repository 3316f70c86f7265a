import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import ShieldCheck from "lucide-react/icons/shield-check";
import ShieldOff from "lucide-react/icons/shield-off";
import { ConfirmAction } from "#app/components/confirm-action.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { formatLongDate } from "#app/utils/dates.ts";

export type GivenAchievement = {
  id: string;
  title: string;
  date: string;
  status: "pending" | "accepted" | "rejected";
  recipientName: string;
  credentialId: string | null;
  revokedAt: Date | string | null;
};

const STATUS_LABELS = { pending: "Pending", accepted: "Accepted", rejected: "Declined" } as const;

/** The achievements an organisation gave, newest first, a page at a time; each credential can be revoked. */
export function GivenAchievements({ rows, pager }: { rows: GivenAchievement[]; pager: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Given achievements</CardTitle>
        <CardDescription>
          Accepted achievements carry a verifiable credential. Revoking one removes it from the member&apos;s passport
          and makes its credential verify as revoked.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {rows.length === 0 ? (
          <p className="text-muted-foreground">No achievements given yet.</p>
        ) : (
          <ul className="divide-y">
            {rows.map((row) => (
              <li key={row.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
                <div className="min-w-0">
                  <p className="font-medium break-words">{row.title}</p>
                  <p className="text-sm break-words text-muted-foreground">
                    {row.recipientName} · <time dateTime={row.date}>{formatLongDate(row.date)}</time>
                  </p>
                </div>
                <div className="flex flex-wrap items-center gap-2">
                  {row.revokedAt ? (
                    <Badge variant="destructive">Revoked</Badge>
                  ) : (
                    <Badge variant={row.status === "accepted" ? "default" : "outline"}>
                      {STATUS_LABELS[row.status]}
                    </Badge>
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
            ))}
          </ul>
        )}
        {pager}
      </CardContent>
    </Card>
  );
}
