import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigate, useSubmit } from "@remix-run/react";
import { CheckCircle2, Loader2, XCircle } from "lucide-react";
import { useEffect, useRef } from "react";
import { z } from "zod";
import { AuthCard } from "#app/components/auth-card.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { PRODUCT_NAME, REDIRECT_DELAY_MS } from "#app/utils/constants.ts";
import { redirectWithToast } from "#app/utils/cookies.server.ts";
import { joinByInvite } from "#app/utils/memberships.server.ts";
import { requireViewer } from "#app/utils/session.server.ts";
import { findOrganization } from "#db/queries/organizations.ts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.organization ? `Join ${data.organization.name}` : "Failed to join"} · ${PRODUCT_NAME}` },
];

async function organizationFrom(params: { organizationId?: string }, context: LoaderFunctionArgs["context"]) {
  const id = z.uuid().safeParse(params.organizationId);
  return id.success ? ((await findOrganization(context.db, id.data)) ?? null) : null;
}

// Opening the link shows the page; joining is a POST (sent at once with JavaScript), so link
// previews and scanners never join anyone.
export async function loader({ params, context }: LoaderFunctionArgs) {
  const organization = await organizationFrom(params, context);
  if (!organization) return data({ organization: null, signedIn: false }, { status: 404 });
  return { organization, signedIn: Boolean(await context.getUser()) };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const organization = await organizationFrom(params, context);
  if (!organization) return data({ joined: false as const }, { status: 404 });
  const outcome = await joinByInvite(context, viewer.id, organization.id);
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
  return { joined: true as const };
}

export default function JoinOrganization() {
  const { organization, signedIn } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const submit = useSubmit();
  const navigate = useNavigate();
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (organization && signedIn && !result && formRef.current) submit(formRef.current);
  }, [organization, signedIn, result, submit]);
  useEffect(() => {
    if (!result?.joined) return;
    const timer = setTimeout(() => navigate("/dashboard"), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [result, navigate]);

  if (!organization || (result && !result.joined)) {
    return (
      <AuthCard
        title="Failed to join"
        description="There was an error joining the organisation. The invite link may be invalid."
      >
        <div className="grid justify-items-center gap-4">
          <XCircle className="size-12 text-destructive" aria-hidden />
          <p role="alert" className="font-medium">
            Organisation not found
          </p>
          <Button asChild>
            <Link to="/dashboard">Go to Dashboard</Link>
          </Button>
        </div>
      </AuthCard>
    );
  }

  if (!signedIn) {
    const back = encodeURIComponent(`/join/${organization.id}`);
    return (
      <AuthCard
        title="Sign in required"
        description="You need to sign in or create an account to join this organisation."
      >
        <p className="mb-4 text-center font-medium break-words">{organization.name}</p>
        <div className="grid gap-2 sm:grid-cols-2">
          <Button asChild>
            <Link to={`/auth?redirectTo=${back}`}>Sign In</Link>
          </Button>
          <Button asChild variant="outline">
            <Link to={`/auth?mode=signup&redirectTo=${back}`}>Sign Up</Link>
          </Button>
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

  return (
    <AuthCard title="Joining organisation..." description={organization.name}>
      <Form method="post" ref={formRef} className="grid justify-items-center gap-4">
        <Loader2 className="size-10 animate-spin text-primary" aria-hidden />
        <noscript>
          <Button type="submit">Join {organization.name}</Button>
        </noscript>
      </Form>
    </AuthCard>
  );
}
