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
import { AuthCard } from "#app/components/auth-card.tsx";
import { showToast } from "#app/utils/toast.ts";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { PRODUCT_NAME, REDIRECT_DELAY_MS } from "#app/utils/constants.ts";
import { log } from "#app/utils/log.server.ts";
import { errorSummary, UNEXPECTED_FAILURE } from "#app/utils/form-reply.server.ts";
import type { Toast } from "#app/utils/toast-message.ts";
import { safeRedirectPath } from "#app/utils/cookies.server.ts";
import { confirm } from "./confirm.server.ts";
import { checkLink } from "./confirmation-link.server.ts";
import { PasswordStep } from "./password-step.tsx";

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

export async function action(args: ActionFunctionArgs) {
  try {
    return await confirm(args);
  } catch (error) {
    if (error instanceof Response) throw error;
    const toast = verificationFailed(args.context, error);
    return data({ ok: false as const, organisationCreated: false, signedIn: false, toast }, { status: 500 });
  }
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
