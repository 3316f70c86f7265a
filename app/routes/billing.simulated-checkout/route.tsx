import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useLoaderData } from "@remix-run/react";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { SimulatedStripePage } from "#app/components/billing/simulated-stripe-page.tsx";
import { PRODUCT_NAME } from "#app/utils/constants.ts";
import { requireSimulatedBilling } from "#app/utils/dev-only.server.ts";
import { withHttpErrors } from "#app/utils/form-reply.server.ts";
import { requireViewer } from "#app/utils/session.server.ts";
import { requireSubscribableMember } from "#app/services/subscriptions.server.ts";
import { runIntent } from "#app/utils/intent.server.ts";
import { cancelIntent } from "./cancel.server.ts";
import { completeIntent } from "./complete.server.ts";
import { target } from "./target.ts";

export const meta: MetaFunction = () => [{ title: `Simulated checkout · ${PRODUCT_NAME}` }];

// The local stand-in for Stripe Checkout (no STRIPE_SECRET_KEY): completing it makes a
// checkout.session.completed event and hands it to the same code as a verified webhook.
function parseTarget(values: Record<string, unknown>) {
  const parsed = target.safeParse(values);
  if (!parsed.success) throw new Response("This checkout link is incomplete.", { status: 400 });
  return parsed.data;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  requireSimulatedBilling(context);
  const viewer = await requireViewer(request, context);
  const input = parseTarget(Object.fromEntries(new URL(request.url).searchParams));
  const membership = await withHttpErrors(requireSubscribableMember(context, viewer.id, input));
  return {
    ...input,
    memberName: membership.memberName,
    organizationName: membership.organizationName,
    active: membership.subscriptionStatus === "active",
  };
}

const INTENTS = { complete: completeIntent, cancel: cancelIntent };

export async function action({ request, context }: ActionFunctionArgs) {
  requireSimulatedBilling(context);
  const viewer = await requireViewer(request, context);
  return runIntent({ request, context }, INTENTS, { viewer, fields: await request.formData(), back: "/dashboard" });
}

export default function SimulatedCheckout() {
  const { organizationId, memberUserId, memberName, organizationName, active } = useLoaderData<typeof loader>();
  return (
    <SimulatedStripePage
      title="Simulated checkout"
      description="No payment is taken: this page stands in for Stripe Checkout while no Stripe key is configured."
      memberName={memberName}
      organizationName={organizationName}
      footer={
        <Form method="post" className="flex w-full flex-wrap justify-end gap-2">
          <input type="hidden" name="organizationId" value={organizationId} />
          <input type="hidden" name="memberUserId" value={memberUserId} />
          <SubmitButton intent="cancel" variant="outline">
            Cancel
          </SubmitButton>
          <SubmitButton intent="complete" disabled={active}>
            Complete payment
          </SubmitButton>
        </Form>
      }
    >
      {active ? (
        <p role="status" className="mt-4 text-sm font-medium">
          {memberName} already has an active subscription.
        </p>
      ) : null}
    </SimulatedStripePage>
  );
}
