import { parseWithZod } from "@conform-to/zod/v4";
import {
  type ActionFunctionArgs,
  type AppLoadContext,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { Building2, MailCheck, UserRound } from "lucide-react";
import { z } from "zod";
import { AuthCard } from "#app/components/auth-card.tsx";
import { FormError, SubmitButton, TextareaField, TextField } from "#app/components/forms.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Checkbox } from "#app/components/ui/checkbox.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { FORGOT_PASSWORD_PATH, PRODUCT_NAME } from "#app/utils/constants.ts";
import { redirectWithToast, safeRedirectPath, signUpCookieHeader, type Toast } from "#app/utils/cookies.server.ts";
import { consumeRateLimit, RATE_LIMIT_MESSAGE, type RateLimitedAction } from "#app/utils/rate-limit.server.ts";
import { requireAnonymous } from "#app/utils/session.server.ts";
import { useValidatedForm } from "#app/utils/use-validated-form.ts";
import { replyFailure, replyUnexpected } from "#app/utils/form-reply.server.ts";
import { useFormReply } from "#app/utils/form-reply.ts";
import { signInSchema, signUpSchema, orgSignUpSchema, resendSchema } from "#app/utils/form-schemas.ts";
import { deleteUnconfirmedAccount, recordSignUp } from "#db/queries/accounts.ts";
import { enterAccount, startSession } from "#app/utils/sign-in.server.ts";
import { emailFingerprint, pathOf, securityEvent } from "#app/utils/log.server.ts";

// ---- Modes: the URL's ?mode= picks the screen, so every step is a link that works without JS ----

const MODES = {
  signin: { param: null, title: "Sign in" },
  choose: { param: "signup", title: "Create your account" },
  signup: { param: "personal", title: "Create your passport" },
  "org-signup": { param: "organisation", title: "Create an organisation account" },
  "verify-email": { param: "verify-email", title: "Check your email" },
} as const;
type Mode = keyof typeof MODES;

function modeFromUrl(url: URL): Mode {
  const param = url.searchParams.get("mode");
  const match = Object.entries(MODES).find(([, mode]) => mode.param === param);
  return (match?.[0] as Mode | undefined) ?? "signin";
}

function modeHref(mode: Mode, searchParams: URLSearchParams) {
  const params = new URLSearchParams();
  const param = MODES[mode].param;
  if (param) params.set("mode", param);
  const redirectTo = searchParams.get("redirectTo");
  if (redirectTo) params.set("redirectTo", redirectTo);
  const query = params.toString();
  return query ? `/auth?${query}` : "/auth";
}

// ---- Schemas: one per form, used by the browser and the server alike ----

const SCHEMAS = {
  signin: signInSchema,
  signup: signUpSchema,
  "org-signup": orgSignUpSchema,
  "resend-verification": resendSchema,
} as const;

// ---- Server ----

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${MODES[data?.mode ?? "signin"].title} · ${PRODUCT_NAME}` },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAnonymous(context);
  const url = new URL(request.url);
  return { mode: modeFromUrl(url), email: url.searchParams.get("email") };
}

type AuthApiFailure = { code?: string; message?: string };

/** The auth library's answer to a server call, as status, JSON body and cookies to pass on. */
async function readAuthResponse(response: Response) {
  const body = (await response.json().catch(() => ({}))) as AuthApiFailure & { user?: { id: string; name: string } };
  const headers = new Headers();
  for (const cookie of response.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  return { ok: response.ok, body, headers };
}

/** A parsed submission, able to answer with its errors and the user's input (less passwords). */
type Replyable = Parameters<typeof replyFailure>[0]["submission"] & {};

/** A refused sign-in or sign-up: the message in the toast and above the form, the password gone. */
function failure(formId: string, submission: Replyable, toast: Toast, status: number, formError?: string) {
  return replyFailure({
    formId,
    submission,
    toast,
    status,
    formErrors: formError ? [formError] : undefined,
    hideFields: ["password"],
  });
}

async function rateLimited(context: AppLoadContext, request: Request, action: RateLimitedAction) {
  return !(await consumeRateLimit(context.db, request, action));
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(context);
  const formData = await request.formData();
  const intent = formData.get("intent");
  const schema = SCHEMAS[intent as keyof typeof SCHEMAS];
  if (!schema) throw new Response("Unknown action", { status: 400 });

  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") {
    return replyFailure({ formId: String(intent), submission, hideFields: ["password"] });
  }
  const value = submission.value;
  const limitKey: RateLimitedAction =
    value.intent === "signin" ? "sign-in" : value.intent === "resend-verification" ? "resend-verification" : "sign-up";
  if (await rateLimited(context, request, limitKey)) {
    securityEvent("auth.failed", {
      reason: "rate limited",
      action: limitKey,
      route: pathOf(request),
      requestId: context.requestId,
    });
    return failure(
      value.intent,
      submission,
      { title: "Too many attempts", description: RATE_LIMIT_MESSAGE, variant: "destructive" },
      429,
      RATE_LIMIT_MESSAGE,
    );
  }

  switch (value.intent) {
    case "signin":
      return signIn(request, context, submission, value).catch((error: unknown) =>
        replyUnexpected(error, {
          title: "Sign in failed",
          formId: value.intent,
          submission,
          hideFields: ["password"],
          requestId: context.requestId,
        }),
      );
    case "signup":
    case "org-signup":
      return signUp(request, context, submission, value).catch((error: unknown) =>
        replyUnexpected(error, {
          title: "Error",
          formId: value.intent,
          submission,
          hideFields: ["password"],
          requestId: context.requestId,
        }),
      );
    case "resend-verification":
      await context.auth.api
        .sendVerificationEmail({ body: { email: value.email }, headers: request.headers })
        .catch(() => {});
      return redirectWithToast(
        context.env,
        request,
        `/auth?mode=verify-email&email=${encodeURIComponent(value.email)}`,
        {
          title: "Check your email",
          description: `If ${value.email} has an account waiting for confirmation, a new link is on its way.`,
        },
      );
  }
}

async function signIn(
  request: Request,
  context: AppLoadContext,
  submission: Replyable,
  value: z.infer<typeof signInSchema>,
) {
  const session = await startSession(context, request, {
    email: value.email,
    password: value.password,
    remember: value.remember === "on",
  });
  const refuse = (status: number, message: string) =>
    failure(
      "signin",
      submission,
      { title: "Sign in failed", description: message, variant: "destructive" },
      status,
      message,
    );
  if (!session.ok || !session.body.user) {
    const { body } = session;
    securityEvent("auth.failed", {
      reason: body.code === "EMAIL_NOT_VERIFIED" ? "email not verified" : "invalid email or password",
      route: pathOf(request),
      requestId: context.requestId,
      email: await emailFingerprint(value.email),
    });
    const message =
      body.code === "EMAIL_NOT_VERIFIED"
        ? "Please confirm your email address first. We have sent you a new confirmation link."
        : (body.message ?? "Invalid email or password");
    return refuse(session.status === 403 ? 403 : 401, message);
  }
  const destination = safeRedirectPath(value.redirectTo, "/dashboard");
  const entered = await enterAccount(
    context,
    request,
    { user: session.body.user, headers: session.headers },
    destination,
  );
  // Archived past the grace period: as good as purged, so answered like an unknown address.
  return entered ?? refuse(401, "Invalid email or password");
}

async function signUp(
  request: Request,
  context: AppLoadContext,
  submission: Replyable,
  value: z.infer<typeof signUpSchema> | z.infer<typeof orgSignUpSchema>,
) {
  // The newest sign-up for an unconfirmed address is the only one (pre-account takeover).
  await deleteUnconfirmedAccount(context.db, value.email);
  const response = await context.auth.api.signUpEmail({
    body: { email: value.email, password: value.password, name: value.name },
    headers: request.headers,
    asResponse: true,
  });
  const { ok, body } = await readAuthResponse(response);
  // Only this browser is signed in by the confirmation link. (A taken address gets a made-up
  // user id here, which matches nothing: the answer looks the same.)
  const headers = new Headers();
  if (body.user) headers.append("Set-Cookie", await signUpCookieHeader(context.env, request, body.user.id));
  const answer = () =>
    redirectWithToast(
      context.env,
      request,
      `/auth?mode=verify-email&email=${encodeURIComponent(value.email)}`,
      { title: "Check your email", description: `We sent a confirmation link to ${value.email}.` },
      { headers },
    );
  if (!ok || !body.user) {
    // Two sign-ups for one address at once (a double click, a retry): the other one created the
    // account and sends its mail. Answer as for any taken address, the same as for a new one.
    if (
      await context.db.query.users.findFirst({
        where: (users, { eq }) => eq(users.email, value.email.toLowerCase()),
        columns: { id: true },
      })
    ) {
      return answer();
    }
    const message = body.message ?? "An error occurred";
    return failure(
      value.intent,
      submission,
      { title: "Error", description: message, variant: "destructive" },
      400,
      message,
    );
  }

  const isOrganisation = value.intent === "org-signup";
  await recordSignUp(context.db, {
    userId: body.user.id,
    fullName: value.name,
    userType: isOrganisation ? "organization" : "individual",
    organization: isOrganisation
      ? { name: value.organizationName, description: value.organizationDescription }
      : undefined,
  });
  // Answered the same for a new and a taken address; a failed e-mail never loses the account.
  await context.auth.api
    .sendVerificationEmail({
      // Kept in the confirmation link, so an invite survives the round trip through the mailbox.
      body: { email: value.email, callbackURL: safeRedirectPath(value.redirectTo, "/") },
      headers: request.headers,
    })
    .catch((error) => {
      console.error(JSON.stringify({ level: "error", message: "verification email failed", error: String(error) }));
    });
  return answer();
}

// ---- Screens ----

export default function AuthPage() {
  const { mode, email } = useLoaderData<typeof loader>();
  switch (mode) {
    case "choose":
      return <ChooseAccountType />;
    case "signup":
      return <SignUpForm organisation={false} />;
    case "org-signup":
      return <SignUpForm organisation />;
    case "verify-email":
      return <VerifyEmail email={email} />;
    default:
      return <SignInForm />;
  }
}

function SignInForm() {
  const actionData = useFormReply("signin");
  const [searchParams] = useSearchParams();
  const { form, fields, formProps } = useValidatedForm({ id: "signin", schema: signInSchema, actionData });
  return (
    <AuthCard title="Sign in" description="Welcome back. Sign in to your passport.">
      <Form method="post" {...formProps} className="grid gap-4">
        <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? ""} />
        <FormError errors={form.errors} />
        <TextField field={fields.email} label="Email" type="email" autoComplete="email" autoFocus />
        <TextField field={fields.password} label="Password" type="password" autoComplete="current-password" />
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div className="flex items-center gap-2">
            <Checkbox id="remember" name="remember" defaultChecked={fields.remember.initialValue === "on"} />
            <Label htmlFor="remember">Keep me signed in</Label>
          </div>
          <Link to={FORGOT_PASSWORD_PATH} className="text-sm font-medium text-primary hover:underline">
            Forgot password?
          </Link>
        </div>
        <SubmitButton intent="signin" pendingText="Signing in...">
          Sign In
        </SubmitButton>
      </Form>
      <p className="mt-6 text-center text-sm text-muted-foreground">
        New here?{" "}
        <Link to={modeHref("choose", searchParams)} className="font-medium text-primary hover:underline">
          Create an account
        </Link>
      </p>
    </AuthCard>
  );
}

function ChooseAccountType() {
  const [searchParams] = useSearchParams();
  const choices = [
    {
      mode: "signup" as const,
      icon: UserRound,
      title: "Personal",
      text: "Keep your own career passport and share it with anyone.",
    },
    {
      mode: "org-signup" as const,
      icon: Building2,
      title: "Organisation",
      text: "Recognise your team and manage your members.",
    },
  ];
  return (
    <AuthCard title="Create your account" description="What kind of account do you need?">
      <ul className="grid gap-3">
        {choices.map(({ mode, icon: Icon, title, text }) => (
          <li key={mode}>
            <Link
              to={modeHref(mode, searchParams)}
              className="flex items-start gap-4 rounded-lg border p-4 transition-colors hover:border-primary hover:bg-accent"
            >
              <span className="grid size-10 shrink-0 place-items-center rounded-lg bg-primary/10 text-primary">
                <Icon className="size-5" aria-hidden />
              </span>
              <span>
                <span className="block font-semibold">{title}</span>
                <span className="block text-sm text-muted-foreground">{text}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
      <p className="mt-6 text-center text-sm text-muted-foreground">
        Already have an account?{" "}
        <Link to={modeHref("signin", searchParams)} className="font-medium text-primary hover:underline">
          Sign in
        </Link>
      </p>
    </AuthCard>
  );
}

function SignUpForm({ organisation }: { organisation: boolean }) {
  const [searchParams] = useSearchParams();
  const schema = organisation ? orgSignUpSchema : signUpSchema;
  const intent = organisation ? "org-signup" : "signup";
  const actionData = useFormReply(intent);
  const { form, fields, formProps } = useValidatedForm({ id: intent, schema, actionData });
  const orgFields = fields as typeof fields & ReturnType<typeof useValidatedForm<typeof orgSignUpSchema>>["fields"];
  return (
    <AuthCard
      title={organisation ? "Create an organisation account" : "Create your passport"}
      description={
        organisation
          ? "Recognise your members with achievements they keep for life."
          : "Start your lifelong record of achievements."
      }
    >
      <Form method="post" {...formProps} className="grid gap-4">
        <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? ""} />
        <FormError errors={form.errors} />
        <TextField field={fields.name} label="Full Name" autoComplete="name" autoFocus />
        <TextField field={fields.email} label="Email" type="email" autoComplete="email" />
        <TextField
          field={fields.password}
          label="Password"
          type="password"
          autoComplete="new-password"
          hint="At least 6 characters."
        />
        {organisation ? (
          <>
            <TextField field={orgFields.organizationName} label="Organisation Name" autoComplete="organization" />
            <TextareaField
              field={orgFields.organizationDescription}
              label="Organisation Description (optional)"
              rows={3}
            />
          </>
        ) : null}
        <SubmitButton intent={intent} pendingText="Creating account...">
          Create Account
        </SubmitButton>
      </Form>
      <p className="mt-6 text-center text-sm text-muted-foreground">
        <Link to={modeHref("choose", searchParams)} className="font-medium text-primary hover:underline">
          Choose another account type
        </Link>
        {" · "}
        <Link to={modeHref("signin", searchParams)} className="font-medium text-primary hover:underline">
          Sign in
        </Link>
      </p>
    </AuthCard>
  );
}

function VerifyEmail({ email }: { email: string | null }) {
  const actionData = useFormReply("resend-verification");
  const { fields, formProps } = useValidatedForm({
    id: "resend-verification",
    schema: resendSchema,
    actionData,
    defaultValue: { email: email ?? "" },
  });
  return (
    <AuthCard
      title="Check your email"
      description={
        email
          ? `We sent a confirmation link to ${email}. Open it to finish creating your account.`
          : "We sent you a confirmation link. Open it to finish creating your account."
      }
    >
      <div className="grid gap-6">
        <MailCheck className="mx-auto size-12 text-primary" aria-hidden />
        <Button asChild>
          <Link to="/auth">Back to sign in</Link>
        </Button>
        <Form method="post" {...formProps} className="grid gap-3 border-t pt-6">
          <p className="text-sm text-muted-foreground">
            No email after a few minutes? Check your spam folder, or send it again.
          </p>
          <TextField field={fields.email} label="Email" type="email" autoComplete="email" />
          <SubmitButton intent="resend-verification" variant="outline" pendingText="Sending...">
            Resend confirmation email
          </SubmitButton>
        </Form>
      </div>
    </AuthCard>
  );
}
