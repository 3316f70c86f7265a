import { Form, useSearchParams, useSubmit } from "@remix-run/react";
import AlertTriangle from "lucide-react/icons/triangle-exclamation-point";
import { useEffect, useRef, useState } from "react";
import { ConfirmAction } from "#app/components/confirm-action.tsx";
import { FieldError } from "#app/components/form-messages.tsx";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { PasswordInput } from "#app/components/ui/password-input.tsx";
import { ARCHIVE_GRACE_DAYS, REDIRECT_DELAY_MS } from "#app/utils/constants.ts";
import { useFormReply } from "#app/utils/form-reply.ts";
import { useHydrated } from "#app/utils/use-hydrated.ts";

/**
 * What Settings shows an archived account instead of its sections: reactivate, or delete
 * everything (with the password). Its forms post to /settings, whose action takes only these.
 */
export function ArchivedNotice() {
  const actionData = useFormReply("purge");
  const hydrated = useHydrated();
  const submit = useSubmit();
  const [searchParams] = useSearchParams();
  const signOutForm = useRef<HTMLFormElement>(null);
  const [deciding, setDeciding] = useState(false);
  // Right after archiving, the user is signed out after 2 seconds (unless choosing to delete
  // everything); coming back by signing in, they choose: reactivate or delete.
  const justArchived = searchParams.get("archived") === "now";
  const passwordErrors = actionData?.result?.error?.password ?? undefined;

  useEffect(() => {
    if (!justArchived || deciding) return;
    const timer = setTimeout(() => signOutForm.current && submit(signOutForm.current), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [justArchived, deciding, submit]);

  return (
    <Card className="border-destructive/50">
      <CardHeader>
        <CardTitle as="h2" className="flex items-center gap-2">
          <AlertTriangle className="size-5 text-destructive" aria-hidden /> Account Archived
        </CardTitle>
        <CardDescription>
          Your profile and achievements are hidden and your memberships were removed.{" "}
          {justArchived
            ? `Sign in again within ${ARCHIVE_GRACE_DAYS} days to reactivate your account; after that it is deleted.`
            : `Reactivate it to carry on where you left off, or delete everything now. Unless reactivated, it is deleted ${ARCHIVE_GRACE_DAYS} days after it was archived.`}
          {hydrated && justArchived && !deciding ? " Signing you out..." : null}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap gap-3">
        {justArchived ? null : (
          <Form method="post">
            <SubmitButton intent="reactivate" pendingText="Reactivating...">
              Reactivate
            </SubmitButton>
          </Form>
        )}
        <ConfirmAction
          id="purge"
          intent="purge"
          trigger="Permanently Delete All Data"
          title="Permanently delete all data?"
          confirm="Delete Everything"
          onOpenChange={setDeciding}
          description={
            <>
              This deletes:
              <ul className="my-2 list-disc space-y-1 pl-5 text-left">
                <li>Your profile</li>
                <li>Achievements you received or created</li>
                <li>Organisation memberships and roles</li>
                <li>Notifications and activity history</li>
                <li>Your authentication credentials</li>
              </ul>
              This cannot be undone.
            </>
          }
        >
          <div className="grid gap-2 text-left">
            <Label htmlFor="purge-password">Current Password</Label>
            <PasswordInput
              id="purge-password"
              name="password"
              autoComplete="current-password"
              required
              aria-invalid={passwordErrors ? true : undefined}
              aria-describedby={passwordErrors ? "purge-password-error" : undefined}
            />
            <FieldError id="purge-password-error" errors={passwordErrors} />
          </div>
        </ConfirmAction>
        <Form method="post" action="/auth/signout" ref={signOutForm}>
          <Button type="submit" variant="outline">
            Sign Out
          </Button>
        </Form>
      </CardContent>
    </Card>
  );
}
