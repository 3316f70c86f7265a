import { Form, useLocation } from "@remix-run/react";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { useFormReply } from "#app/utils/form-reply.ts";
import { SettingCheckbox } from "./setting-checkbox.tsx";

/** Whether approved members get a 'Member of …' entry with its credential (decision 070). */
export function MembershipCredentials({ enabled, organizationName }: { enabled: boolean; organizationName: string }) {
  const refused = useFormReply("set-membership-credentials");
  const location = useLocation();
  const error = refused ? (refused.toast.description ?? refused.toast.title) : null;
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Membership credentials</CardTitle>
        <CardDescription>
          A member you approve, or who joins through your invite link, gets &apos;Member of {organizationName}&apos; on
          their passport, with a credential signed by {organizationName}. When they leave or are removed, it shows the
          dates they were a member. Memberships are not counted as achievements.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" id="set-membership-credentials" className="grid gap-4">
          <SettingCheckbox
            name="membershipCredentials"
            checked={enabled}
            resetKey={refused ? "refused" : location.key}
            label="Give members a membership credential"
            note="Turning this off stops new entries; entries already given stay, and are dated when a membership ends."
          />
          {error ? (
            <p role="alert" className="text-sm text-destructive">
              {error}
            </p>
          ) : null}
          <div>
            <SubmitButton intent="set-membership-credentials" pendingText="Saving...">
              Save
            </SubmitButton>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}
