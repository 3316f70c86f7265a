import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { formatBytes, STORAGE_FULL_TITLE } from "#app/utils/storage-quota.ts";

/** How much of their storage a person's files take (decision 074), read in the page's batch. */
export function StorageUsage({ used, quota }: { used: number; quota: number }) {
  const share = quota > 0 ? Math.min(1, used / quota) : 1;
  const full = used >= quota;
  const summary = `${formatBytes(used)} of ${formatBytes(quota)} used`;
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Storage</CardTitle>
        <CardDescription>
          Your profile picture, introduction video, pictures and videos of your own achievements, and imported
          credentials.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-2">
        <div
          role="meter"
          aria-label="Storage used"
          aria-valuemin={0}
          aria-valuemax={quota}
          aria-valuenow={Math.min(used, quota)}
          aria-valuetext={summary}
          className="h-2 w-full overflow-hidden rounded-full bg-muted"
        >
          <div
            className={full ? "h-full bg-destructive" : "h-full bg-primary"}
            style={{ width: `${(share * 100).toFixed(1)}%` }}
          />
        </div>
        <p className="text-sm text-muted-foreground">{summary}</p>
        {full ? (
          <p className="text-sm font-medium text-destructive">
            {STORAGE_FULL_TITLE}: remove your introduction video or an imported credential to upload more.
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}
