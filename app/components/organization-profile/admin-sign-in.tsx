import { Form, Link, useLocation } from "@remix-run/react";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { OWN_STRONG_FACTOR_FIRST, STRONG_FACTOR_SETUP_PATH } from "#app/utils/admin-sign-in.ts";
import { useFormReply } from "#app/utils/form-reply.ts";
import { SettingCheckbox } from "./setting-checkbox.tsx";

/** The organisation's admin sign-in rule, and how many of its admins do not meet it yet. */
export type AdminSignInSetting = {
  requireTwoFactor: boolean;
  adminHoldsStrongFactor: boolean;
  adminsWithoutStrongFactor: number;
};

/** Whether the organisation's admins must use two-factor authentication or a passkey (decision 062). */
export function AdminSignIn({ setting }: { setting: AdminSignInSetting }) {
  const refused = useFormReply("set-admin-sign-in");
  const location = useLocation();
  const without = setting.adminsWithoutStrongFactor;
  // Turning it on is refused until the admin holds a strong factor themselves: said before they try.
  const ownFirst = !setting.requireTwoFactor && !setting.adminHoldsStrongFactor;
  const error = refused ? (refused.toast.description ?? refused.toast.title) : null;
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Admin sign-in</CardTitle>
        <CardDescription>
          An admin without two-factor authentication or a passkey is asked to set one up before the admin dashboard
          opens. Members who are not admins are not affected.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" id="set-admin-sign-in" className="grid gap-4">
          <SettingCheckbox
            name="requireTwoFactor"
            checked={setting.requireTwoFactor}
            // A refused save shows the saved state again.
            resetKey={refused ? "refused" : location.key}
            label="Require two-factor authentication or a passkey for admins"
            note={
              without === 0
                ? "Every admin has two-factor authentication or a passkey."
                : `${without === 1 ? "1 admin has" : `${without} admins have`} no two-factor authentication or passkey yet.`
            }
          />
          {error || ownFirst ? (
            <p role={error ? "alert" : undefined} className={error ? "text-sm text-destructive" : "text-sm"}>
              {error ?? OWN_STRONG_FACTOR_FIRST}{" "}
              <Link to={STRONG_FACTOR_SETUP_PATH} className="underline underline-offset-4">
                Set up two-factor authentication
              </Link>
            </p>
          ) : null}
          <div>
            <SubmitButton intent="set-admin-sign-in" pendingText="Saving...">
              Save
            </SubmitButton>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}
