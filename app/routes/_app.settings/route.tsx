import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useSearchParams, useSubmit } from "@remix-run/react";
import AlertTriangle from "lucide-react/icons/triangle-exclamation-point";
import ArrowLeft from "lucide-react/icons/arrow-left";
import { Suspense, useEffect, useRef, useState } from "react";
import { ConfirmAction } from "#app/components/confirm-action.tsx";
import { FieldError } from "#app/components/form-messages.tsx";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { PasswordInput } from "#app/components/ui/password-input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { ARCHIVE_GRACE_DAYS, PRODUCT_NAME, REDIRECT_DELAY_MS } from "#app/utils/constants.ts";
import { runIntent } from "#app/utils/intent.server.ts";
import { requireViewer } from "#app/utils/session.server.ts";
import { useHydrated } from "#app/utils/use-hydrated.ts";
import { useFormReply } from "#app/utils/form-reply.ts";
import { useViewer } from "#app/utils/use-viewer.ts";
import { SettingsForms as SettingsFormsNow } from "#app/components/settings/settings-forms.tsx";
import { LoadAtOnce, lazyAfterInteraction } from "#app/utils/after-interaction.tsx";
import { noteInteraction } from "#app/utils/first-interaction.ts";
import { SESSIONS_PREFIX } from "#app/components/settings/sessions.tsx";
import { HolderKeys as HolderKeysNow } from "#app/components/settings/holder-keys.tsx";
import { HOLDER_KEYS_SHOWN, ownHolderKeysPart } from "#app/services/wallet-acceptance.server.ts";
import { otherAddressesListPart } from "#app/services/other-addresses.server.ts";
import { passkeysListPart } from "#app/services/passkeys.server.ts";
import { sessionsListPart } from "#app/services/sessions.server.ts";
import { authenticatorOf, authenticatorSetup } from "#app/utils/two-factor.server.ts";
import { runParts } from "#db/queries/batch-parts.ts";
import { twoFactorPart } from "#db/queries/two-factor.ts";
import { MAX_OTHER_ADDRESSES } from "#db/queries/other-addresses.ts";
import { MAX_PASSKEYS } from "#db/queries/passkeys.ts";
import { storageUsedPart } from "#db/queries/storage.ts";
import { StorageUsage } from "#app/components/settings/storage.tsx";
import { STORAGE_QUOTA_BYTES } from "#app/utils/storage-quota.ts";
import { PAGE_SIZES, pageRequestFrom } from "#db/queries/paging.ts";
import { addOtherAddressIntent } from "./add-other-address.server.ts";
import { addPasskeyIntent } from "./add-passkey.server.ts";
import { archiveIntent } from "./archive.server.ts";
import { changePasswordIntent } from "./change-password.server.ts";
import { confirmTwoFactorIntent } from "./confirm-two-factor.server.ts";
import { disableTwoFactorIntent } from "./disable-two-factor.server.ts";
import { enableTwoFactorIntent } from "./enable-two-factor.server.ts";
import { forgetHolderKeyIntent } from "./forget-holder-key.server.ts";
import { regenerateRecoveryCodesIntent } from "./regenerate-recovery-codes.server.ts";
import { passkeyOptionsIntent } from "./passkey-options.server.ts";
import { purgeIntent } from "./purge.server.ts";
import { reactivateIntent } from "./reactivate.server.ts";
import { removeOtherAddressIntent } from "./remove-other-address.server.ts";
import { removePasskeyIntent } from "./remove-passkey.server.ts";
import { renamePasskeyIntent } from "./rename-passkey.server.ts";
import { resendOtherAddressIntent } from "./resend-other-address.server.ts";
import { sendFeedbackIntent } from "./send-feedback.server.ts";
import { signOutOtherSessionsIntent } from "./sign-out-other-sessions.server.ts";
import { signOutSessionIntent } from "./sign-out-session.server.ts";
import { updatePreferencesIntent } from "./update-preferences.server.ts";
import { updateProfileIntent } from "./update-profile.server.ts";

/** The page's forms: rendered at once on the server, hydrated after the first interaction (decision 049). */
const SettingsForms = import.meta.env.SSR
  ? SettingsFormsNow
  : lazyAfterInteraction(() =>
      import("#app/components/settings/settings-forms.tsx").then((module) => ({ default: module.SettingsForms })),
    );
/** The wallet keys list: rendered at once on the server, hydrated after the first interaction. */
const HolderKeys = import.meta.env.SSR
  ? HolderKeysNow
  : lazyAfterInteraction(() =>
      import("#app/components/settings/holder-keys.tsx").then((module) => ({ default: module.HolderKeys })),
    );

export const meta: MetaFunction = () => [{ title: `Settings · ${PRODUCT_NAME}` }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context, { allowArchived: true });
  if (viewer.archivedAt) {
    return { sessions: null, twoFactor: null, passkeys: null, holderKeys: null, otherAddresses: null, storage: null };
  }
  const page = pageRequestFrom(new URL(request.url).searchParams, SESSIONS_PREFIX, PAGE_SIZES.sessions);
  // One round trip for all six (the guard's batch is the other).
  const [sessions, twoFactorRow, passkeys, holderKeys, otherAddresses, storageUsed] = await runParts(context.db, [
    sessionsListPart(context, { userId: viewer.id, currentSessionId: viewer.sessionId, page }),
    twoFactorPart(context.db, viewer.id),
    passkeysListPart(context, viewer.id),
    ownHolderKeysPart(context.db, viewer.id, HOLDER_KEYS_SHOWN),
    otherAddressesListPart(context, viewer.id),
    storageUsedPart(context.db, viewer.id),
  ]);
  const authenticator = await authenticatorOf(context, twoFactorRow);
  // A setup waiting for its first code is shown again until it is confirmed (or started over).
  const setup =
    !authenticator.enabled && authenticator.secret && !authenticator.verified
      ? authenticatorSetup(authenticator.secret, viewer.email)
      : null;
  return {
    sessions: { ...sessions, now: Date.now() },
    twoFactor: { enabled: authenticator.enabled, setup },
    passkeys: { items: passkeys, max: MAX_PASSKEYS, now: Date.now() },
    holderKeys,
    otherAddresses: { items: otherAddresses, max: MAX_OTHER_ADDRESSES, now: Date.now() },
    storage: { used: storageUsed, quota: STORAGE_QUOTA_BYTES },
  };
}

/** Every form Settings posts, by its `intent`. */
const INTENTS = {
  "update-profile": updateProfileIntent,
  "update-preferences": updatePreferencesIntent,
  "change-password": changePasswordIntent,
  "send-feedback": sendFeedbackIntent,
  "sign-out-session": signOutSessionIntent,
  "sign-out-other-sessions": signOutOtherSessionsIntent,
  "enable-two-factor": enableTwoFactorIntent,
  "confirm-two-factor": confirmTwoFactorIntent,
  "regenerate-recovery-codes": regenerateRecoveryCodesIntent,
  "disable-two-factor": disableTwoFactorIntent,
  "passkey-options": passkeyOptionsIntent,
  "add-passkey": addPasskeyIntent,
  "rename-passkey": renamePasskeyIntent,
  "remove-passkey": removePasskeyIntent,
  "forget-holder-key": forgetHolderKeyIntent,
  "add-other-address": addOtherAddressIntent,
  "resend-other-address": resendOtherAddressIntent,
  "remove-other-address": removeOtherAddressIntent,
  archive: archiveIntent,
  reactivate: reactivateIntent,
  purge: purgeIntent,
};
/** What an archived account may still do here. */
const WHILE_ARCHIVED = new Set(["archive", "reactivate", "purge"]);

export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireViewer(request, context, { allowArchived: true });
  const fields = await request.formData();
  if (
    viewer.archivedAt &&
    Object.hasOwn(INTENTS, String(fields.get("intent"))) &&
    !WHILE_ARCHIVED.has(String(fields.get("intent")))
  ) {
    return redirect("/settings");
  }
  return runIntent({ request, context }, INTENTS, { viewer, fields, back: "/settings" });
}

export default function SettingsPage() {
  const viewer = useViewer();
  const { sessions, twoFactor, passkeys, holderKeys, otherAddresses, storage } = useLoaderData<typeof loader>();
  // 'Continue' posted before the forms hydrated (a plain form post): its answer's 'Create passkey'
  // needs them now, not at the page's next interaction.
  const answer = useActionData<typeof action>();
  const passkeyOptionsShown = Boolean(answer && typeof answer === "object" && "passkeyOptions" in answer);
  useEffect(() => {
    if (passkeyOptionsShown) noteInteraction();
  }, [passkeyOptionsShown]);
  const back = viewer.userType === "organization" ? "/dashboard" : "/passport";

  return (
    <div className="mx-auto grid max-w-2xl gap-6">
      <div className="flex items-center gap-2">
        <Link to={back} aria-label="Back" className={buttonVariants({ variant: "ghost", size: "icon" })}>
          <ArrowLeft aria-hidden />
        </Link>
        <h1 className="text-2xl font-bold tracking-tight">Settings</h1>
      </div>

      {viewer.archivedAt ? (
        <ArchivedNotice />
      ) : (
        <>
          <Suspense fallback={<LoadAtOnce />}>
            <SettingsForms
              sessions={sessions}
              twoFactor={twoFactor}
              passkeys={passkeys}
              otherAddresses={otherAddresses}
            />
          </Suspense>
          {holderKeys ? (
            <Suspense fallback={<LoadAtOnce />}>
              <HolderKeys holderKeys={holderKeys} />
            </Suspense>
          ) : null}
          {storage ? <StorageUsage {...storage} /> : null}
          <DangerZone />
        </>
      )}
    </div>
  );
}

function DangerZone() {
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

function ArchivedNotice() {
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
