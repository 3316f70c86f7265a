import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigate, useSubmit } from "@remix-run/react";
import CheckCircle2 from "lucide-react/icons/circle-check";
import Loader2 from "lucide-react/icons/loader-circle";
import XCircle from "lucide-react/icons/circle-x";
import { useEffect, useRef } from "react";
import { AuthCard } from "#app/components/auth-card.tsx";
import { showToast } from "#app/utils/toast.ts";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { PRODUCT_NAME, REDIRECT_DELAY_MS } from "#app/utils/constants.ts";
import { pathOf, securityEvent } from "#app/utils/log.server.ts";
import { isSessionCookieLine } from "#app/utils/session.server.ts";
import { clearSignUpCookieHeader, readSignUpCookie, safeRedirectPath } from "#app/utils/cookies.server.ts";
import { confirmAccount, discardSession } from "#app/services/sign-up.server.ts";
import { findAccountByEmail } from "#db/queries/accounts.ts";

const ERROR_MESSAGE = "There was an error verifying your email. The link may be invalid or expired.";

export const meta: MetaFunction = () => [{ title: `Confirm your email · ${PRODUCT_NAME}` }];

// The link only shows the page; confirming is a POST, so mail scanners that open links
// cannot confirm an address (or start a session) on the user's behalf.
export function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  // Where the person was going when they signed up (an invite link), else the dashboard.
  return {
    token: url.searchParams.get("token"),
    destination: safeRedirectPath(url.searchParams.get("redirectTo"), "/dashboard"),
  };
}

/** The user a verification token names; its signature was checked by the auth library. */
function tokenSubject(token: string) {
  try {
    const payload = JSON.parse(atob(token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/")));
    return { email: String(payload.email), userId: payload.userId ? String(payload.userId) : null };
  } catch {
    return null;
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const token = (await request.formData()).get("token");
  const subject = typeof token === "string" ? tokenSubject(token) : null;
  if (typeof token !== "string" || !subject) {
    securityEvent("auth.failed", {
      reason: "malformed confirmation token",
      route: pathOf(request),
      requestId: context.requestId,
    });
    return data({ ok: false as const, organisationCreated: false, signedIn: false }, { status: 400 });
  }

  // A link of an account that a newer sign-up replaced names a user id that no longer exists
  // (the address now belongs to the newer sign-up, whose own link must be used).
  const user = await findAccountByEmail(context.db, subject.email);
  if (!user || (subject.userId !== null && subject.userId !== user.id)) {
    securityEvent("auth.failed", {
      reason: "confirmation token of a replaced account",
      route: pathOf(request),
      requestId: context.requestId,
      userId: subject.userId,
    });
    return data({ ok: false as const, organisationCreated: false, signedIn: false }, { status: 400 });
  }

  const response = await context.auth.api.verifyEmail({ query: { token }, headers: request.headers, asResponse: true });
  if (!response.ok) {
    securityEvent("auth.failed", {
      reason: "invalid or expired confirmation token",
      route: pathOf(request),
      requestId: context.requestId,
      userId: subject.userId,
      status: response.status,
    });
    return data({ ok: false as const, organisationCreated: false, signedIn: false }, { status: 400 });
  }

  const organisationCreated = await confirmAccount(context, user);
  // Only the browser that signed up is signed in. A link opened anywhere else (another device,
  // or a victim's browser fed an attacker's link: a login CSRF) confirms the address and no more.
  const signedUpHere = (await readSignUpCookie(context.env, request)) === user.id;
  const sessionCookies = response.headers.getSetCookie();
  const headers = new Headers();
  if (signedUpHere) {
    for (const cookie of sessionCookies) headers.append("Set-Cookie", cookie);
    headers.append("Set-Cookie", await clearSignUpCookieHeader(context.env, request));
  } else {
    const sessionToken = sessionTokenOf(sessionCookies);
    if (sessionToken) await discardSession(context, sessionToken);
  }
  return data(
    { ok: true as const, organisationCreated, signedIn: signedUpHere && sessionCookies.length > 0 },
    { headers },
  );
}

/** The session token in the auth library's Set-Cookie lines ("token.signature", URL-encoded). */
function sessionTokenOf(setCookies: string[]) {
  const line = setCookies.find(isSessionCookieLine);
  if (!line) return null;
  const value = decodeURIComponent(line.slice(line.indexOf("=") + 1).split(";")[0] ?? "");
  return value.split(".")[0] || null;
}

export default function ConfirmEmail() {
  const { token, destination } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const submit = useSubmit();
  const navigate = useNavigate();
  const formRef = useRef<HTMLFormElement>(null);

  // With JavaScript the confirmation starts by itself; without it, one button press.
  useEffect(() => {
    if (token && !result && formRef.current) submit(formRef.current);
  }, [token, result, submit]);

  useEffect(() => {
    if (!result?.ok) return;
    if (result.organisationCreated) {
      showToast({ title: "Organisation created!", description: "You are now the admin of your organisation." });
    }
    if (!result.signedIn) return;
    const timer = setTimeout(() => navigate(destination), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [result, navigate, destination]);

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

  if (!token || result) {
    return (
      <AuthCard title="Verification failed" description={ERROR_MESSAGE}>
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
