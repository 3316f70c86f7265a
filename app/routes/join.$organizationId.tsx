import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigate, useSubmit } from "@remix-run/react";
import CheckCircle2 from "lucide-react/icons/circle-check";
import Loader2 from "lucide-react/icons/loader-circle";
import XCircle from "lucide-react/icons/circle-x";
import { useEffect, useRef } from "react";
import { z } from "zod";
import { AuthCard } from "#app/components/auth-card.tsx";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { PRODUCT_NAME, REDIRECT_DELAY_MS, TOAST_AFTER_REDIRECT } from "#app/utils/constants.ts";
import { redirectWithToast, toastHeader } from "#app/utils/cookies.server.ts";
import { JoinRequestFailed, joinByInvite } from "#app/services/memberships.server.ts";
import { requireViewer } from "#app/utils/session.server.ts";
import { loadInvite } from "#db/queries/organizations.ts";
import { errorSummary, failureOf, LOAD_FAILURE } from "#app/utils/form-reply.server.ts";
import { log } from "#app/utils/log.server.ts";
import type { Toast } from "#app/utils/toast-message.ts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.organization ? `Join ${data.organization.name}` : "Failed to join"} · ${PRODUCT_NAME}` },
];

const FAILED_TO_JOIN = "Failed to join";

const organizationIdSchema = z.uuid();
// An invite code is 22 URL-safe characters; anything else is simply not a code.
const codeSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

const codeFrom = (value: unknown) => {
  const code = codeSchema.safeParse(value);
  return code.success ? code.data : null;
};

// Opening the link shows the page; joining is a POST (sent at once with JavaScript when the code
// admits the visitor), so link previews and scanners never join anyone.
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const id = organizationIdSchema.safeParse(params.organizationId);
  const rawCode = new URL(request.url).searchParams.get("code");
  const code = codeFrom(rawCode);
  const user = await context.getUser();
  let invite: Awaited<ReturnType<typeof loadInvite>> = null;
  try {
    invite = id.success ? await loadInvite(context.db, id.data, code, user?.id ?? null) : null;
  } catch (error) {
    // The invite could not be read: the error state, with its toast (spec section 8).
    log("error", "loader part failed", {
      title: FAILED_TO_JOIN,
      requestId: context.requestId,
      error: errorSummary(error),
    });
    const toast: Toast = { title: FAILED_TO_JOIN, description: LOAD_FAILURE, variant: "destructive" };
    return data({ organization: null, signedIn: false, code: null, invite: null, toast }, { status: 500 });
  }
  if (!invite) return data({ organization: null, signedIn: false, code: null, invite: null }, { status: 404 });
  return {
    organization: invite.organization,
    signedIn: Boolean(user),
    code,
    // "join": joins at once; "existing": the POST says which membership exists; "request": the
    // code is missing, wrong, reset, or its holder was removed, so only a request can be sent.
    invite: invite.codeAdmits || invite.membership ? ("join" as const) : ("request" as const),
    codeGiven: rawCode !== null,
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const id = organizationIdSchema.safeParse(params.organizationId);
  const code = codeFrom((await request.formData()).get("code"));
  let joined: Awaited<ReturnType<typeof joinByInvite>> = null;
  try {
    joined = id.success ? await joinByInvite(context, viewer, id.data, code) : null;
  } catch (error) {
    // A failure nobody planned for is logged and answered with the spec's title: the request
    // path's own, or the error state's (a refusal of the caller is thrown as its HTTP answer).
    const asked = error instanceof JoinRequestFailed;
    const title = asked ? "Error requesting membership" : FAILED_TO_JOIN;
    const { toast, status } = failureOf(asked ? error.failure : error, title, context.requestId);
    return data(
      {
        joined: false as const,
        failed: asked ? ("request" as const) : ("join" as const),
        toast: { ...toast, title, variant: "destructive" as const },
      },
      { status },
    );
  }
  if (!joined) return data({ joined: false as const }, { status: 404 });
  const { organization, outcome } = joined;
  if (outcome === "already-member") {
    return redirectWithToast(context.env, request, "/dashboard", {
      title: "Already a member",
      description: `You are already a member of ${organization.name}.`,
    });
  }
  if (outcome === "request-pending") {
    return redirectWithToast(context.env, request, "/dashboard", {
      title: "Request pending",
      description: `Your request to join ${organization.name} is waiting for approval.`,
    });
  }
  if (outcome === "requested") return redirectWithToast(context.env, request, "/dashboard", joined.toast);
  // The page says so, then goes on to the dashboard, which shows the same as a toast: the toast
  // cookie is set now, and read by the dashboard's navigation (the root leaves it until then).
  const toast: Toast = { title: "Successfully joined!", description: `You are now a member of ${organization.name}.` };
  return data(
    { joined: true as const, [TOAST_AFTER_REDIRECT]: true },
    { headers: { "Set-Cookie": await toastHeader(context.env, request, toast) } },
  );
}

export default function JoinOrganization() {
  const loaded = useLoaderData<typeof loader>();
  const { organization, signedIn } = loaded;
  const result = useActionData<typeof action>();
  const submit = useSubmit();
  const navigate = useNavigate();
  const formRef = useRef<HTMLFormElement>(null);
  const joinsAtOnce = loaded.invite === "join";

  useEffect(() => {
    if (organization && signedIn && joinsAtOnce && !result && formRef.current) submit(formRef.current);
  }, [organization, signedIn, joinsAtOnce, result, submit]);
  useEffect(() => {
    if (!result?.joined) return;
    const timer = setTimeout(() => navigate("/dashboard"), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [result, navigate]);

  const failure = result && !result.joined ? result : null;
  // A failed request keeps its page (Request to Join), to try again; any other failure is the error state.
  if (!organization || (failure && (!("failed" in failure) || failure.failed === "join"))) {
    const toast = (loaded as { toast?: Toast }).toast ?? (failure as { toast?: Toast } | null)?.toast ?? null;
    return (
      <AuthCard
        title={FAILED_TO_JOIN}
        description="There was an error joining the organisation. The invite link may be invalid."
      >
        <div className="grid justify-items-center gap-4">
          <XCircle className="size-12 text-destructive" aria-hidden />
          <p role="alert" className="text-center font-medium">
            {toast ? toast.description : "Organisation not found"}
          </p>
          <Link to="/dashboard" className={buttonVariants()}>
            Go to Dashboard
          </Link>
        </div>
      </AuthCard>
    );
  }

  if (!signedIn) {
    // Back to this very link after signing in, code included.
    const back = encodeURIComponent(
      `/join/${organization.id}${loaded.code ? `?code=${encodeURIComponent(loaded.code)}` : ""}`,
    );
    return (
      <AuthCard
        title="Sign in required"
        description="You need to sign in or create an account to join this organisation."
      >
        <p className="mb-4 text-center font-medium break-words">{organization.name}</p>
        <div className="grid gap-2 sm:grid-cols-2">
          <Link to={`/auth?redirectTo=${back}`} className={buttonVariants()}>
            Sign In
          </Link>
          <Link to={`/auth?mode=signup&redirectTo=${back}`} className={buttonVariants({ variant: "outline" })}>
            Sign Up
          </Link>
        </div>
      </AuthCard>
    );
  }

  if (result?.joined) {
    return (
      <AuthCard title="Successfully joined!" description={`You are now a member of ${organization.name}.`}>
        <meta httpEquiv="refresh" content={`${REDIRECT_DELAY_MS / 1000};url=/dashboard`} />
        <div className="grid justify-items-center gap-4 text-center">
          <CheckCircle2 className="size-12 text-success" aria-hidden />
          <p role="status">Redirecting to your dashboard...</p>
        </div>
      </AuthCard>
    );
  }

  if (!joinsAtOnce) {
    return (
      <AuthCard
        title={`Join ${organization.name}`}
        description={
          loaded.codeGiven
            ? "This invite link is no longer valid. You can still ask to join: an admin of the organisation will review your request."
            : "Ask to join and an admin of the organisation will review your request."
        }
      >
        <Form method="post" className="grid">
          <SubmitButton aria-label={`Request to Join ${organization.name}`}>Request to Join</SubmitButton>
        </Form>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Joining organisation..." description={organization.name}>
      <Form method="post" ref={formRef} className="grid justify-items-center gap-4">
        {loaded.code ? <input type="hidden" name="code" value={loaded.code} /> : null}
        <Loader2 className="size-10 animate-spin text-primary" aria-hidden />
        <noscript>
          <Button type="submit">Join {organization.name}</Button>
        </noscript>
      </Form>
    </AuthCard>
  );
}
