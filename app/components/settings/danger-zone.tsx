import { ConfirmAction } from "#app/components/confirm-action.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { ARCHIVE_GRACE_DAYS } from "#app/utils/constants.ts";

/** Settings' danger zone (/settings/danger): archiving the account, after a confirmation. */
export function DangerZone() {
  return (
    <Card className="border-destructive/50">
      <CardHeader>
        <CardTitle as="h2" className="text-destructive">
          Danger Zone
        </CardTitle>
        <CardDescription>
          Archive your account if you want to step away. You can come back within {ARCHIVE_GRACE_DAYS} days.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ConfirmAction
          id="archive"
          intent="archive"
          trigger="Archive Account"
          title="Archive your account?"
          confirm="Archive Account"
          description={
            <>
              <ul className="my-2 list-disc space-y-1 pl-5 text-left">
                <li>Hides your profile</li>
                <li>Hides your achievements</li>
                <li>Removes your organisation memberships</li>
                <li>Signs you out immediately</li>
              </ul>
              Your data is preserved for {ARCHIVE_GRACE_DAYS} days. Reactivate by signing in again, or permanently
              delete it.
            </>
          }
        />
      </CardContent>
    </Card>
  );
}
