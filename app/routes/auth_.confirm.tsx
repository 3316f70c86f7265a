import {
  data,
  type ActionFunctionArgs,
  type AppLoadContext,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigate, useSubmit } from "@remix-run/react";
import CheckCircle2 from "lucide-react/icons/circle-check";
import Loader2 from "lucide-react/icons/loader-circle";
import XCircle from "lucide-react/icons/circle-x";
import { useEffect, useRef } from "react";
import { verifyJWT } from "better-auth/crypto";
import { AuthCard } from "#app/components/auth-card.tsx";
import { FieldError } from "#app/components/form-messages.tsx";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { PasswordInput } from "#app/components/ui/password-input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { Refusal } from "#app/utils/domain-errors.server.ts";
import { PASSWORD_MAX_LENGTH } from "#app/utils/auth.server.ts";
import { showToast } from "#app/utils/toast.ts";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { PRODUCT_NAME, REDIRECT_DELAY_MS } from "#app/utils/constants.ts";
import { log, pathOf, securityEvent } from "#app/utils/log.server.ts";
import { errorSummary, UNEXPECTED_FAILURE } from "#app/utils/form-reply.server.ts";
import type { Toast } from "#app/utils/toast-message.ts";
import { isSessionCookieLine } from "#app/utils/session.server.ts";
import { clearSignUpCookieHeader, readSignUpCookie, safeRedirectPath } from "#app/utils/cookies.server.ts";
import { confirmEmail } from "#app/services/accounts/email-and-password.server.ts";
import { confirmAccount, discardSession, isAccountPassword } from "#app/services/sign-up.server.ts";
import { limitAttempts } from "./auth/form.server.ts";
import { findAccountByEmail } from "#db/queries/accounts.ts";

const ERROR_MESSAGE = "There was an error verifying your email. The link may be invalid or expired.";

export const meta: MetaFunction = () => [{ title: `Confirm your email · ${PRODUCT_NAME}` }];

// The link only shows the page; confirming is a POST, so mail scanners that open links
// cannot confirm an address (or start a session) on the user's behalf. A browser other than the
// one that signed up is asked for the account's password first (decision 058): nobody confirms
// an account whose password they do not know.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("token");
  // Where the person was going when they signed up (an invite link), else the dashboard.
  const destination = safeRedirectPath(url.searchParams.get("redirectTo"), "/dashboard");
  try {
    const checked = token ? await checkLink(context, request, token) : null;
    return { token, destination, askPassword: checked?.ok === true && checked.needsPassword, toast: null };
  } catch (error) {
    // The link could not be checked (the database failed): 'Verification failed', logged.
    return data({ token, destination, askPassword: false, toast: verificationFailed(context, error) }, { status: 500 });
  }
}

const VERIFICATION_FAILED = "Verification failed";

/** Logs a confirmation that failed unexpectedly, and the toast that says so (spec section 8). */
function verificationFailed(context: AppLoadContext, error: unknown): Toast {
  log("error", "action failed", {
    title: VERIFICATION_FAILED,
    requestId: context.requestId,
    error: errorSummary(error),
  });
  return { title: VERIFICATION_FAILED, description: UNEXPECTED_FAILURE, variant: "destructive" };
}

/** The address and user a confirmation token names, when it is well formed (its signature unchecked). */
function tokenSubject(token: string) {
  try {
    const payload = JSON.parse(atob(token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/")));
    return { email: String(payload.email), userId: payload.userId ? String(payload.userId) : null };
  } catch {
    return null;
  }
}

/**
 * What a confirmation link is worth here: refused (malformed; forged or expired, as the auth
 * library's own check finds; or of an account a newer sign-up replaced), or the account it
 * confirms and whether this browser must first give its password (it did not sign up, and the
 * address is not confirmed yet).
 */
async function checkLink(context: AppLoadContext, request: Request, token: string) {
  const subject = tokenSubject(token);
  if (!subject) return { ok: false as const, reason: "malformed confirmation token", userId: null };
  if (!(await verifyJWT(token, context.env.SESSION_SECRET))) {
    return { ok: false as const, reason: "invalid or expired confirmation token", userId: subject.userId };
  }
  // A link of an account that a newer sign-up replaced names a user id that no longer exists
  // (the address now belongs to the newer sign-up, whose own link must be used).
  const user = await findAccountByEmail(context.db, subject.email);
  if (!user || (subject.userId !== null && subject.userId !== user.id)) {
    return { ok: false as const, reason: "confirmation token of a replaced account", userId: subject.userId };
  }
  const signedUpHere = (await readSignUpCookie(context.env, request)) === user.id;
  return { ok: true as const, user, signedUpHere, needsPassword: !signedUpHere && !user.emailVerified };
}

const failed = (status = 400) => data({ ok: false as const, organisationCreated: false, signedIn: false }, { status });

/** Asks this browser for the account's password (its form posts the token again), and what was wrong. */
const askForPassword = (token: string, error: string | null, status: number) =>
  data({ ok: false as const, askPassword: true as const, token, passwordError: error }, { status });

export async function action(args: ActionFunctionArgs) {
  try {
    return await confirm(args);
  } catch (error) {
    if (error instanceof Response) throw error;
    const toast = verificationFailed(args.context, error);
    return data({ ok: false as const, organisationCreated: false, signedIn: false, toast }, { status: 500 });
  }
}

async function confirm({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const token = form.get("token");
  const checked = typeof token === "string" ? await checkLink(context, request, token) : null;
  if (typeof token !== "string" || !checked?.ok) {
    securityEvent("auth.failed", {
      reason: checked?.reason ?? "malformed confirmation token",
      route: pathOf(request),
      requestId: context.requestId,
      userId: checked?.userId ?? null,
    });
    return failed();
  }
  const { user, signedUpHere, needsPassword } = checked;

  if (needsPassword) {
    const password = form.get("password");
    if (typeof password !== "string" || password === "") return askForPassword(token, null, 200);
    try {
      await limitAttempts(request, context, "sign-in");
    } catch (error) {
      if (error instanceof Refusal)
        return askForPassword(token, error.toast.description ?? error.toast.title, error.status);
      throw error;
    }
    if (password.length > PASSWORD_MAX_LENGTH || !(await isAccountPassword(context, user.id, password))) {
      securityEvent("auth.failed", {
        reason: "wrong password for confirmation in another browser",
        route: pathOf(request),
        requestId: context.requestId,
        userId: user.id,
      });
      return askForPassword(token, "Password is incorrect", 400);
    }
  }

  const response = await confirmEmail(context, { token, headers: request.headers });
  if (!response.ok) {
    securityEvent("auth.failed", {
      reason: "invalid or expired confirmation token",
      route: pathOf(request),
      requestId: context.requestId,
      userId: user.id,
      status: response.status,
    });
    return failed();
  }

  const organisationCreated = await confirmAccount(context, user);
  // Signed in: the browser that signed up, or one that has just given the password. A link opened
  // anywhere else (another device, or a victim's browser fed an attacker's link: a login CSRF) of
  // an address already confirmed confirms nothing more and signs nobody in.
  const signsIn = signedUpHere || needsPassword;
  const sessionCookies = response.headers.getSetCookie();
  const headers = new Headers();
  if (signsIn) {
    for (const cookie of sessionCookies) headers.append("Set-Cookie", cookie);
    if (signedUpHere) headers.append("Set-Cookie", await clearSignUpCookieHeader(context.env, request));
  } else {
    const sessionToken = sessionTokenOf(sessionCookies);
    if (sessionToken) await discardSession(context, sessionToken);
  }
  return data({ ok: true as const, organisationCreated, signedIn: signsIn && sessionCookies.length > 0 }, { headers });
}

/** The session token in the auth library's Set-Cookie lines ("token.signature", URL-encoded). */
function sessionTokenOf(setCookies: string[]) {
  const line = setCookies.find(isSessionCookieLine);
  if (!line) return null;
  const value = decodeURIComponent(line.slice(line.indexOf("=") + 1).split(";")[0] ?? "");
  return value.split(".")[0] || null;
}

export default function ConfirmEmail() {
  const { token, destination, askPassword, toast: loadFailure } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const submit = useSubmit();
  const navigate = useNavigate();
  const formRef = useRef<HTMLFormElement>(null);

  // With JavaScript the confirmation starts by itself; without it, one button press. A browser
  // that must give the password first waits for it.
  useEffect(() => {
    if (token && !askPassword && !loadFailure && !result && formRef.current) submit(formRef.current);
  }, [token, askPassword, loadFailure, result, submit]);

  useEffect(() => {
    if (!result?.ok) return;
    if (result.organisationCreated) {
      showToast({ title: "Organisation created!", description: "You are now the admin of your organisation." });
    }
    if (!result.signedIn) return;
    const timer = setTimeout(() => navigate(destination), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [result, navigate, destination]);

  // A POST answers at /auth/confirm without the query: the token comes back with the answer.
  if (result && "askPassword" in result) return <PasswordStep token={result.token} error={result.passwordError} />;
  if (token && askPassword && !result) return <PasswordStep token={token} error={null} />;

  if (result?.ok && !result.signedIn) {
    return (
      <AuthCard title="Email confirmed" description="Your email address is confirmed. Sign in to continue.">
        <div className="grid justify-items-center gap-4 text-center">
          <CheckCircle2 className="size-12 text-success" aria-hidden />
          <Link to={`/auth?redirectTo=${encodeURIComponent(destination)}`} className={buttonVariants()}>
            Sign in
          </Link>
        </div>
      </AuthCard>
    );
  }

  if (result?.ok) {
    return (
      <AuthCard title="Email confirmed" description="Your email address is confirmed.">
        {/* Takes the visitor on even without JavaScript. */}
        <meta httpEquiv="refresh" content={`${REDIRECT_DELAY_MS / 1000};url=${destination}`} />
        <div className="grid justify-items-center gap-4 text-center">
          <CheckCircle2 className="size-12 text-success" aria-hidden />
          <p role="status">
            {destination.startsWith("/join/") ? "Taking you to your invitation..." : "Taking you to your dashboard..."}
          </p>
        </div>
      </AuthCard>
    );
  }

  if (!token || result || loadFailure) {
    return (
      <AuthCard title={VERIFICATION_FAILED} description={ERROR_MESSAGE}>
        <div className="grid justify-items-center gap-4">
          <XCircle className="size-12 text-destructive" aria-hidden />
          <Link to="/auth" className={buttonVariants()}>
            Back to sign in
          </Link>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Verifying your email" description="Just a moment while we confirm your address.">
      <Form method="post" ref={formRef} className="grid justify-items-center gap-4">
        <input type="hidden" name="token" value={token} />
        <Loader2 className="size-10 animate-spin text-primary" aria-hidden />
        <p role="status" className="sr-only">
          Verifying...
        </p>
        <noscript>
          <Button type="submit">Confirm my email</Button>
        </noscript>
      </Form>
    </AuthCard>
  );
}

/**
 * The link was opened in a browser that did not sign up: the account's password confirms it
 * (a plain form, with or without JavaScript).
 */
function PasswordStep({ token, error }: { token: string; error: string | null | undefined }) {
  return (
    <AuthCard
      title="Enter your password"
      description="This link was opened in a different browser from the one you signed up in. Enter your password to confirm your email address."
    >
      <Form method="post" className="grid gap-4">
        <input type="hidden" name="token" value={token} />
        <div className="grid gap-2">
          <Label htmlFor="confirm-password">Password</Label>
          <PasswordInput
            id="confirm-password"
            name="password"
            autoComplete="current-password"
            required
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "confirm-password-error" : undefined}
          />
          <FieldError id="confirm-password-error" errors={error ? [error] : undefined} />
        </div>
        <SubmitButton pendingText="Confirming...">Confirm my email</SubmitButton>
      </Form>
    </AuthCard>
  );
}
