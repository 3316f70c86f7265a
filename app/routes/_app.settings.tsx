import { log, pathOf, securityEvent } from "#app/utils/log.server.ts";
import { parseWithZod } from "@conform-to/zod/v4";
import {
  redirect,
  type ActionFunctionArgs,
  type AppLoadContext,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { Form, Link, useSearchParams, useSubmit } from "@remix-run/react";
import AlertTriangle from "lucide-react/icons/triangle-exclamation-point";
import ArrowLeft from "lucide-react/icons/arrow-left";
import { Suspense, useEffect, useRef, useState } from "react";
import { ConfirmAction } from "#app/components/confirm-action.tsx";
import { FieldError } from "#app/components/form-messages.tsx";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { archiveRefusal, archiveUser, purgeUser } from "#app/services/account-purge.server.ts";
import { PASSWORD_MAX_LENGTH } from "#app/utils/auth.server.ts";
import { createMailer, passwordChangedEmail } from "#app/utils/email.server.ts";
import { closeNotificationSockets } from "#app/utils/notification-hub.server.ts";
import { ARCHIVE_GRACE_DAYS, FORGOT_PASSWORD_PATH, PRODUCT_NAME, REDIRECT_DELAY_MS } from "#app/utils/constants.ts";
import { redirectWithToast, type Toast } from "#app/utils/cookies.server.ts";
import { consumeRateLimit, RATE_LIMIT_MESSAGE } from "#app/utils/rate-limit.server.ts";
import { requireViewer, signOutHeaders } from "#app/utils/session.server.ts";
import { useHydrated } from "#app/utils/use-hydrated.ts";
import { errorSummary, mergeHeaders, replyFailure, replyUnexpected } from "#app/utils/form-reply.server.ts";
import { useFormReply } from "#app/utils/form-reply.ts";
import { z } from "zod";
import { feedbackSchema, passwordSchema, preferencesSchema, profileSchema } from "#app/utils/form-schemas.ts";
import { reactivateAccount } from "#db/queries/accounts.ts";
import { insertFeedback } from "#db/queries/feedback.ts";
import { updatePreferences, updateProfile } from "#db/queries/profiles.ts";
import { invalidatePassports } from "#app/utils/passport-cache.server.ts";
import { useViewer } from "#app/utils/use-viewer.ts";
import { SettingsForms as SettingsFormsNow } from "#app/components/settings/settings-forms.tsx";
import { LoadAtOnce, lazyAfterInteraction } from "#app/utils/after-interaction.tsx";

/** The page's forms: rendered at once on the server, hydrated after the first interaction (decision 049). */
const SettingsForms = import.meta.env.SSR
  ? SettingsFormsNow
  : lazyAfterInteraction(() =>
      import("#app/components/settings/settings-forms.tsx").then((module) => ({ default: module.SettingsForms })),
    );

export const meta: MetaFunction = () => [{ title: `Settings · ${PRODUCT_NAME}` }];

const FORM_SCHEMAS = {
  "update-profile": profileSchema,
  "update-preferences": preferencesSchema,
  "change-password": passwordSchema,
  "send-feedback": feedbackSchema,
} as const;
type FormIntent = keyof typeof FORM_SCHEMAS;

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireViewer(request, context, { allowArchived: true });
  return null;
}

/** The spec's title for each intent that failed unexpectedly. */
const FAILURE_TITLES: Record<string, string> = {
  archive: "Error archiving account",
  reactivate: "Error",
  purge: "Error purging account",
  "update-profile": "Error updating profile",
  "update-preferences": "Error",
  "change-password": "Error changing password",
  "send-feedback": "Error",
};
const PASSWORD_FIELDS = ["currentPassword", "newPassword", "confirmPassword"];

export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireViewer(request, context, { allowArchived: true });
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "");
  const title = FAILURE_TITLES[intent];
  if (!title) throw new Response("Unknown action", { status: 400 });

  if (intent === "archive" || intent === "reactivate" || intent === "purge") {
    try {
      return await ACCOUNT_ACTIONS[intent](request, context, viewer, formData);
    } catch (error) {
      return replyUnexpected(error, { title, formId: intent, hideFields: ["password"], requestId: context.requestId });
    }
  }
  if (viewer.archivedAt) return redirect("/settings");

  const submission = parseWithZod(formData, { schema: FORM_SCHEMAS[intent as FormIntent] });
  if (submission.status !== "success") {
    return replyFailure({ formId: intent, submission, hideFields: PASSWORD_FIELDS });
  }
  try {
    return await save(request, context, viewer, submission.value, (toast, status, fieldErrors) =>
      replyFailure({ formId: intent, submission, toast, status, fieldErrors, hideFields: PASSWORD_FIELDS }),
    );
  } catch (error) {
    return replyUnexpected(error, {
      title,
      formId: intent,
      submission,
      hideFields: PASSWORD_FIELDS,
      requestId: context.requestId,
    });
  }
}

type Viewer = Awaited<ReturnType<typeof requireViewer>>;

async function archive(request: Request, context: AppLoadContext, viewer: Viewer) {
  if (viewer.archivedAt) return redirect("/settings");
  const refusal = await archiveRefusal(context, viewer.id);
  if (refusal) {
    return redirectWithToast(context.env, request, "/settings", {
      title: "Error archiving account",
      description: refusal,
      variant: "destructive",
    });
  }
  await archiveUser(context, viewer.id, viewer.sessionId);
  // ?archived=now: the notice signs the user out after 2 seconds (a later visit offers the choice).
  return redirectWithToast(context.env, request, "/settings?archived=now", {
    title: "Account Archived",
    description: `Your account is hidden. Sign in within ${ARCHIVE_GRACE_DAYS} days to reactivate it.`,
  });
}

async function reactivate(request: Request, context: AppLoadContext, viewer: Viewer) {
  if (!viewer.archivedAt) return redirect("/dashboard");
  await reactivateAccount(context.db, viewer.id);
  await invalidatePassports(context.env, viewer.id);
  return redirectWithToast(context.env, request, "/dashboard", {
    title: "Welcome back",
    description: "Your account has been reactivated.",
  });
}

async function purge(request: Request, context: AppLoadContext, viewer: Viewer, formData: FormData) {
  if (!viewer.archivedAt) return redirect("/settings");
  // Deleting everything asks for the password again: a session left open is not enough.
  const submission = parseWithZod(formData, { schema: purgeSchema });
  const refuse = (message: string, status: number) =>
    replyFailure({
      formId: "purge",
      submission,
      toast: { title: "Error purging account", description: message },
      status,
      fieldErrors: { password: [message] },
      hideFields: ["password"],
    });
  if (submission.status !== "success") return refuse(submission.error?.password?.[0] ?? "Password is required", 400);
  if (!(await consumeRateLimit(context.db, request, "change-password"))) return refuse(RATE_LIMIT_MESSAGE, 429);
  const { password } = submission.value;
  const verified = await context.auth.api.verifyPassword({ body: { password }, headers: request.headers }).then(
    () => true,
    () => false,
  );
  if (!verified) {
    securityEvent("auth.failed", {
      reason: "wrong password for permanent deletion",
      route: pathOf(request),
      requestId: context.requestId,
      userId: viewer.id,
    });
    return refuse("Password is incorrect", 400);
  }
  // Delete everything first, so a failure leaves the person signed in on Settings, told so and
  // able to try again; then end the session (sign-out tolerates the session row already gone).
  await purgeUser({ db: context.db, media: context.cloudflare.env.MEDIA, env: context.env }, viewer.id);
  const headers = await signOutHeaders(request, context);
  context.cloudflare.ctx.waitUntil(closeNotificationSockets(context, viewer.id));
  return redirectWithToast(context.env, request, "/goodbye", { title: "Account Purged" }, { headers });
}

const purgeSchema = z.object({
  intent: z.literal("purge"),
  password: z
    .string("Password is required")
    .min(1, "Password is required")
    .max(PASSWORD_MAX_LENGTH, "Password is incorrect"),
});

/** What an archived (or archiving) account may do, each answered on Settings. */
const ACCOUNT_ACTIONS = { archive, reactivate, purge };

async function save(
  request: Request,
  context: AppLoadContext,
  viewer: Viewer,
  value: z.output<(typeof FORM_SCHEMAS)[FormIntent]>,
  refuse: (toast: Toast, status: number, fieldErrors?: Record<string, string[]>) => ReturnType<typeof replyFailure>,
) {
  switch (value.intent) {
    case "update-profile":
      await updateProfile(context.db, viewer.id, {
        fullName: value.fullName,
        bio: value.bio,
        isPublic: value.isPublic === "on",
      });
      await invalidatePassports(context.env, viewer.id);
      return redirectWithToast(context.env, request, "/settings", { title: "Profile updated" });

    case "update-preferences":
      await updatePreferences(context.db, viewer.id, {
        searchIndexing: value.searchIndexing === "on",
        recognitionEmails: value.recognitionEmails === "on",
      });
      // The passport's robots tag changes with the search engine choice.
      await invalidatePassports(context.env, viewer.id);
      return redirectWithToast(context.env, request, "/settings", { title: "Preferences saved" });

    case "change-password": {
      if (!(await consumeRateLimit(context.db, request, "change-password"))) {
        return refuse({ title: "Error changing password", description: RATE_LIMIT_MESSAGE }, 429);
      }
      const response = await context.auth.api.changePassword({
        body: { currentPassword: value.currentPassword, newPassword: value.newPassword, revokeOtherSessions: true },
        headers: request.headers,
        asResponse: true,
      });
      if (response.status >= 500) throw new Error(`changePassword answered ${response.status}`);
      if (!response.ok) {
        securityEvent("auth.failed", {
          reason: "wrong current password",
          route: pathOf(request),
          requestId: context.requestId,
          userId: viewer.id,
        });
        const message = "Current password is incorrect";
        return refuse({ title: "Error changing password", description: message }, 400, { currentPassword: [message] });
      }
      // Every other session ends (and its tabs' sockets close); this one continues under a new token.
      context.cloudflare.ctx.waitUntil(closeNotificationSockets(context, viewer.id));
      await createMailer(context.env, context.db)
        .send(
          passwordChangedEmail({
            email: viewer.email,
            name: viewer.fullName,
            forgotUrl: `${context.env.APP_URL ?? new URL(request.url).origin}${FORGOT_PASSWORD_PATH}`,
          }),
        )
        .catch((error) => log("error", "mail not sent", { error: errorSummary(error) }));
      return redirectWithToast(
        context.env,
        request,
        "/settings",
        { title: "Password updated" },
        { headers: mergeHeaders(response.headers) },
      );
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
            <SettingsForms />
          </Suspense>
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
            <Input
              id="purge-password"
              name="password"
              type="password"
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
