import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { SimulatedStripePage } from "#app/components/billing/simulated-stripe-page.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { PRODUCT_NAME } from "#app/utils/constants.ts";
import { redirectWithToast } from "#app/utils/cookies.server.ts";
import { requireSimulatedBilling } from "#app/utils/dev-only.server.ts";
import { requireViewer } from "#app/utils/session.server.ts";
import { cancelMemberSubscription, subscriptionOf } from "#app/services/subscriptions.server.ts";
import { Refusal } from "#app/utils/domain-errors.server.ts";
import { failureOf, withHttpErrors } from "#app/utils/form-reply.server.ts";

export const meta: MetaFunction = () => [{ title: `Simulated customer portal · ${PRODUCT_NAME}` }];

// The local stand-in for Stripe's customer portal: it shows the subscription and cancels it
// through the same code as the Cancel button on the dashboard.
const membershipIdOf = (value: unknown) => {
  const parsed = z.uuid().safeParse(value);
  if (!parsed.success) throw new Response("This portal link is incomplete.", { status: 400 });
  return parsed.data;
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  requireSimulatedBilling(context);
  const viewer = await requireViewer(request, context);
  const membershipId = membershipIdOf(new URL(request.url).searchParams.get("membershipId"));
  const membership = await withHttpErrors(subscriptionOf(context, viewer.id, membershipId));
  return {
    membershipId,
    memberName: membership.memberName,
    organizationName: membership.organizationName,
    active: membership.subscriptionStatus === "active",
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireSimulatedBilling(context);
  const viewer = await requireViewer(request, context);
  const membershipId = membershipIdOf((await request.formData()).get("membershipId"));
  try {
    return redirectWithToast(
      context.env,
      request,
      "/dashboard",
      await cancelMemberSubscription(context, viewer.id, membershipId),
    );
  } catch (error) {
    if (error instanceof Refusal) return redirectWithToast(context.env, request, "/dashboard", error.toast);
    // Anything unplanned (D1 failing) is logged and told, as the dashboard's own form does.
    const { toast } = failureOf(error, "Error", context.requestId);
    return redirectWithToast(context.env, request, "/dashboard", { ...toast, variant: "destructive" });
  }
}

export default function SimulatedPortal() {
  const { membershipId, memberName, organizationName, active } = useLoaderData<typeof loader>();
  return (
    <SimulatedStripePage
      title="Simulated customer portal"
      description="This page stands in for Stripe's customer portal while no Stripe key is configured."
      memberName={memberName}
      organizationName={organizationName}
      details={
        <>
          <dt className="text-muted-foreground">Status</dt>
          <dd className="font-semibold">{active ? "Active" : "Not subscribed"}</dd>
        </>
      }
      footer={
        <div className="flex w-full flex-wrap justify-end gap-2">
          <Link to="/dashboard" className={buttonVariants({ variant: "outline" })}>
            Back to dashboard
          </Link>
          {active ? (
            <Form method="post">
              <input type="hidden" name="membershipId" value={membershipId} />
              <SubmitButton intent="cancel-subscription" variant="destructive">
                Cancel subscription
              </SubmitButton>
            </Form>
          ) : null}
        </div>
      }
    />
  );
}
