import type { SubmissionResult } from "@conform-to/react";
import { pathOf, securityEvent } from "#app/utils/log.server.ts";
import { parseWithZod } from "@conform-to/zod/v4";
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { Form, Link, useActionData, useSubmit } from "@remix-run/react";
import { AlertTriangle, ArrowLeft, Download, FileText } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { ConfirmAction } from "#app/components/confirm-action.tsx";
import { FieldError, FormError, SubmitButton, TextareaField, TextField } from "#app/components/forms.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { purgeUser } from "#app/utils/account-purge.server.ts";
import { ARCHIVE_GRACE_DAYS, PRODUCT_NAME, REDIRECT_DELAY_MS } from "#app/utils/constants.ts";
import { redirectWithToast, type Toast } from "#app/utils/cookies.server.ts";
import { consumeRateLimit, RATE_LIMIT_MESSAGE } from "#app/utils/rate-limit.server.ts";
import { requireViewer, signOutHeaders } from "#app/utils/session.server.ts";
import { useHydrated } from "#app/utils/use-hydrated.ts";
import { useValidatedForm } from "#app/utils/use-validated-form.ts";
import { validationToast } from "#app/utils/validation.ts";
import { feedbackSchema, passwordSchema, preferencesSchema, profileSchema } from "#app/utils/form-schemas.ts";
import { archiveAccount } from "#db/queries/accounts.ts";
import { insertFeedback } from "#db/queries/feedback.ts";
import { updatePreferences, updateProfile } from "#db/queries/profiles.ts";
import { invalidatePassports } from "#app/utils/passport-cache.server.ts";
import { IntroVideoUploader } from "#app/components/media-inputs.tsx";
import { IntroVideo } from "#app/components/passport/intro-video.tsx";
import { useSubmissionKey } from "#app/utils/use-submission-key.ts";
import { useViewer } from "./_app.tsx";

export const meta: MetaFunction = () => [{ title: `Settings · ${PRODUCT_NAME}` }];

const FORM_SCHEMAS = {
  "update-profile": profileSchema,
  "update-preferences": preferencesSchema,
  "change-password": passwordSchema,
  "send-feedback": feedbackSchema,
} as const;
type FormIntent = keyof typeof FORM_SCHEMAS;
type SettingsActionData = { intent: FormIntent; result: SubmissionResult<string[]>; toast?: Toast };

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireViewer(request, context, { allowArchived: true });
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireViewer(request, context, { allowArchived: true });
  const formData = await request.formData();
  const intent = formData.get("intent");

  if (intent === "archive") {
    if (viewer.archivedAt) return redirect("/settings");
    await archiveAccount(context.db, viewer.id, viewer.sessionId);
    await invalidatePassports(viewer.id);
    return redirectWithToast(context.env, request, "/settings", {
      title: "Account Archived",
      description: `Your account is hidden. Sign in within ${ARCHIVE_GRACE_DAYS} days to reactivate it.`,
    });
  }
  if (intent === "purge") {
    if (!viewer.archivedAt) return redirect("/settings");
    // End the session first (its cookie is cleared), then delete everything of the user.
    const headers = await signOutHeaders(request, context);
    await purgeUser(context.db, context.cloudflare.env.MEDIA, viewer.id);
    return redirectWithToast(context.env, request, "/goodbye", { title: "Account Purged" }, { headers });
  }
  if (viewer.archivedAt) return redirect("/settings");

  const schema = FORM_SCHEMAS[intent as FormIntent];
  if (!schema) throw new Response("Unknown action", { status: 400 });
  const submission = parseWithZod(formData, { schema });
  const fail = (
    toast: Toast,
    status: number,
    errors?: { formErrors?: string[]; fieldErrors?: Record<string, string[]> },
  ) =>
    data<SettingsActionData>(
      {
        intent: intent as FormIntent,
        result: submission.reply({ ...errors, hideFields: ["currentPassword", "newPassword", "confirmPassword"] }),
        toast,
      },
      { status },
    );
  if (submission.status !== "success") return fail(validationToast(submission.error), 400);

  const value = submission.value;
  switch (value.intent) {
    case "update-profile":
      await updateProfile(context.db, viewer.id, {
        fullName: value.fullName,
        bio: value.bio,
        isPublic: value.isPublic === "on",
      });
      await invalidatePassports(viewer.id);
      return redirectWithToast(context.env, request, "/settings", { title: "Profile updated" });

    case "update-preferences":
      await updatePreferences(context.db, viewer.id, {
        searchIndexing: value.searchIndexing === "on",
        recognitionEmails: value.recognitionEmails === "on",
      });
      // The passport's robots tag changes with the search engine choice.
      await invalidatePassports(viewer.id);
      return redirectWithToast(context.env, request, "/settings", { title: "Preferences saved" });

    case "change-password": {
      if (!(await consumeRateLimit(context.db, request, "change-password"))) {
        return fail(
          { title: "Error changing password", description: RATE_LIMIT_MESSAGE, variant: "destructive" },
          429,
          {
            formErrors: [RATE_LIMIT_MESSAGE],
          },
        );
      }
      const response = await context.auth.api.changePassword({
        body: { currentPassword: value.currentPassword, newPassword: value.newPassword, revokeOtherSessions: true },
        headers: request.headers,
        asResponse: true,
      });
      if (!response.ok) {
        securityEvent("auth.failed", {
          reason: "wrong current password",
          route: pathOf(request),
          requestId: context.requestId,
          userId: viewer.id,
        });
        const message = "Current password is incorrect";
        return fail({ title: "Error changing password", description: message, variant: "destructive" }, 400, {
          fieldErrors: { currentPassword: [message] },
        });
      }
      // Every other session ends; this one continues under a new token.
      const headers = new Headers();
      for (const cookie of response.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
      return redirectWithToast(context.env, request, "/settings", { title: "Password updated" }, { headers });
    }

    case "send-feedback":
      // A resubmitted form (same key) is answered the same, and stored once.
      await insertFeedback(context.db, viewer.id, {
        message: value.message,
        rating: value.rating ?? null,
        submissionKey: value.submissionKey ?? null,
      });
      return redirectWithToast(context.env, request, "/settings", {
        title: "Feedback sent",
        description: "Thank you for helping us improve.",
      });
  }
}

export default function SettingsPage() {
  const viewer = useViewer();
  const actionData = useActionData<typeof action>() as SettingsActionData | undefined;
  const forIntent = (intent: FormIntent) => (actionData?.intent === intent ? actionData : undefined);
  const back = viewer.userType === "organization" ? "/dashboard" : "/passport";

  return (
    <div className="mx-auto grid max-w-2xl gap-6">
      <div className="flex items-center gap-2">
        <Button asChild variant="ghost" size="icon">
          <Link to={back} aria-label="Back">
            <ArrowLeft aria-hidden />
          </Link>
        </Button>
        <h1 className="text-2xl font-bold tracking-tight">Settings</h1>
      </div>

      {viewer.archivedAt ? (
        <ArchivedNotice />
      ) : (
        <>
          <ProfileSettings actionData={forIntent("update-profile")} />
          <PrivacyAndEmails actionData={forIntent("update-preferences")} />
          <YourData />
          <ChangePassword actionData={forIntent("change-password")} />
          <BetaFeedback actionData={forIntent("send-feedback")} />
          <DangerZone />
        </>
      )}
    </div>
  );
}

function ProfileSettings({ actionData }: { actionData?: SettingsActionData }) {
  const viewer = useViewer();
  const { form, fields, formProps } = useValidatedForm({
    id: "update-profile",
    schema: profileSchema,
    actionData,
    defaultValue: { fullName: viewer.fullName, bio: viewer.bio ?? "", isPublic: viewer.isPublic ? "on" : undefined },
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Profile Settings</CardTitle>
      </CardHeader>
      <CardContent>
        <Form method="post" {...formProps} className="grid gap-4">
          <FormError errors={form.errors} />
          <TextField field={fields.fullName} label="Full Name" autoComplete="name" />
          <div className="grid gap-2">
            <Label htmlFor="email">Email</Label>
            <Input id="email" type="email" value={viewer.email} disabled aria-describedby="email-note" />
            <p id="email-note" className="text-sm text-muted-foreground">
              Email cannot be changed here. Contact support to update your email.
            </p>
          </div>
          <TextareaField
            field={fields.bio}
            label="Bio"
            rows={4}
            placeholder="Write a short introduction about yourself..."
          />
          {viewer.userType === "individual" ? (
            <div className="flex items-start gap-3">
              <input
                id={fields.isPublic.id}
                name={fields.isPublic.name}
                type="checkbox"
                defaultChecked={fields.isPublic.initialValue === "on"}
                className="mt-0.5 size-4 accent-primary"
                aria-describedby="public-note"
              />
              <div className="grid gap-1">
                <Label htmlFor={fields.isPublic.id}>Public passport</Label>
                <p id="public-note" className="text-sm text-muted-foreground">
                  Anyone with your link can see your accepted achievements. When off, only you can.
                </p>
              </div>
            </div>
          ) : (
            <input type="hidden" name={fields.isPublic.name} value={viewer.isPublic ? "on" : ""} />
          )}
          <div>
            <SubmitButton intent="update-profile" pendingText="Saving...">
              Save Profile
            </SubmitButton>
          </div>
        </Form>
        {viewer.userType === "individual" ? (
          // Its own form: a video uploads on its own, never held up by the profile fields.
          <div className="mt-6 grid gap-3 border-t pt-6">
            <IntroVideo url={viewer.introVideoUrl} thumbnailUrl={viewer.introVideoThumbnailUrl} />
            <IntroVideoUploader introVideoUrl={viewer.introVideoUrl} redirectTo="/settings" />
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}

function PrivacyAndEmails({ actionData }: { actionData?: SettingsActionData }) {
  const viewer = useViewer();
  const { fields, formProps } = useValidatedForm({
    id: "update-preferences",
    schema: preferencesSchema,
    actionData,
    defaultValue: {
      searchIndexing: viewer.searchIndexing ? "on" : undefined,
      recognitionEmails: viewer.recognitionEmails ? "on" : undefined,
    },
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Privacy and Emails</CardTitle>
      </CardHeader>
      <CardContent>
        <Form method="post" {...formProps} className="grid gap-4">
          {viewer.userType === "individual" ? (
            <CheckboxField
              id={fields.searchIndexing.id}
              name={fields.searchIndexing.name}
              defaultChecked={fields.searchIndexing.initialValue === "on"}
              label="Show in search engines"
              note="Search engines may list your public passport. When off, it asks them not to."
            />
          ) : (
            <input type="hidden" name={fields.searchIndexing.name} value={viewer.searchIndexing ? "on" : ""} />
          )}
          <CheckboxField
            id={fields.recognitionEmails.id}
            name={fields.recognitionEmails.name}
            defaultChecked={fields.recognitionEmails.initialValue === "on"}
            label="Email me when an organisation recognises me"
            note="You are always told in the app as well."
          />
          <div>
            <SubmitButton intent="update-preferences" pendingText="Saving...">
              Save Preferences
            </SubmitButton>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}

function CheckboxField(props: { id: string; name: string; defaultChecked: boolean; label: string; note: string }) {
  return (
    <div className="flex items-start gap-3">
      <input
        id={props.id}
        name={props.name}
        type="checkbox"
        defaultChecked={props.defaultChecked}
        className="mt-0.5 size-4 accent-primary"
        aria-describedby={`${props.id}-note`}
      />
      <div className="grid gap-1">
        <Label htmlFor={props.id}>{props.label}</Label>
        <p id={`${props.id}-note`} className="text-sm text-muted-foreground">
          {props.note}
        </p>
      </div>
    </div>
  );
}

/** Downloads: a full export (a POST: it is rate limited) and the résumé file on its own. */
function YourData() {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Your Data</CardTitle>
        <CardDescription>
          Take everything with you: your profile, achievements, memberships, notifications, feedback and files, in one
          ZIP file. The résumé is in the JSON Resume format that many CV tools import.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap gap-3">
        {/* A full document submission, so the browser saves the file, with or without JavaScript. */}
        <Form method="post" action="/settings/export" reloadDocument>
          <Button type="submit">
            <Download aria-hidden /> Download my data
          </Button>
        </Form>
        <Button asChild variant="outline">
          <a href="/settings/resume.json" download>
            <FileText aria-hidden /> Download résumé (JSON)
          </a>
        </Button>
      </CardContent>
    </Card>
  );
}

function ChangePassword({ actionData }: { actionData?: SettingsActionData }) {
  const { form, fields, formProps } = useValidatedForm({ id: "change-password", schema: passwordSchema, actionData });
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Change Password</CardTitle>
        <CardDescription>Changing your password signs you out everywhere else.</CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" {...formProps} className="grid gap-4">
          <FormError errors={form.errors} />
          <TextField
            field={fields.currentPassword}
            label="Current Password"
            type="password"
            autoComplete="current-password"
          />
          <TextField field={fields.newPassword} label="New Password" type="password" autoComplete="new-password" />
          <TextField
            field={fields.confirmPassword}
            label="Confirm New Password"
            type="password"
            autoComplete="new-password"
          />
          <div>
            <SubmitButton intent="change-password" pendingText="Updating...">
              Update Password
            </SubmitButton>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}

function BetaFeedback({ actionData }: { actionData?: SettingsActionData }) {
  const { fields, formProps } = useValidatedForm({ id: "send-feedback", schema: feedbackSchema, actionData });
  const submissionKey = useSubmissionKey();
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Beta Feedback</CardTitle>
        <CardDescription>Tell us what works, what does not, and what you would like next.</CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" {...formProps} className="grid gap-4">
          <input type="hidden" name="submissionKey" value={submissionKey} />
          <TextareaField field={fields.message} label="Your feedback" rows={4} />
          <fieldset className="grid gap-2">
            <legend className="text-sm font-medium">Rating (optional)</legend>
            <div className="flex flex-wrap gap-3">
              {[1, 2, 3, 4, 5].map((rating) => (
                <label key={rating} className="flex items-center gap-1.5 text-sm">
                  <input
                    type="radio"
                    name={fields.rating.name}
                    value={rating}
                    defaultChecked={fields.rating.initialValue === String(rating)}
                    className="accent-primary"
                  />
                  {rating}
                </label>
              ))}
            </div>
            <FieldError errors={fields.rating.errors} />
          </fieldset>
          <div>
            <SubmitButton intent="send-feedback" pendingText="Sending...">
              Send Feedback
            </SubmitButton>
          </div>
        </Form>
      </CardContent>
    </Card>
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
  const hydrated = useHydrated();
  const submit = useSubmit();
  const signOutForm = useRef<HTMLFormElement>(null);
  const [deciding, setDeciding] = useState(false);

  // Archiving signs the user out after 2 seconds, unless they are choosing to delete everything.
  useEffect(() => {
    if (deciding) return;
    const timer = setTimeout(() => signOutForm.current && submit(signOutForm.current), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [deciding, submit]);

  return (
    <Card className="border-destructive/50">
      <CardHeader>
        <CardTitle as="h2" className="flex items-center gap-2">
          <AlertTriangle className="size-5 text-destructive" aria-hidden /> Account Archived
        </CardTitle>
        <CardDescription>
          Your profile and achievements are hidden and your memberships were removed. Sign in again within{" "}
          {ARCHIVE_GRACE_DAYS} days to reactivate your account; after that it is deleted.
          {hydrated && !deciding ? " Signing you out..." : null}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap gap-3">
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
        />
        <Form method="post" action="/auth/signout" ref={signOutForm}>
          <Button type="submit" variant="outline">
            Sign Out
          </Button>
        </Form>
      </CardContent>
    </Card>
  );
}
