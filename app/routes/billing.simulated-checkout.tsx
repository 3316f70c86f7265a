import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { SubmitButton } from "#app/components/forms.tsx";
import { LogoHeader } from "#app/components/logo.tsx";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { MEMBER_PRICE_LABEL, PRODUCT_NAME, SUBSCRIPTION_PRODUCT } from "#app/utils/constants.ts";
import { redirectWithToast } from "#app/utils/cookies.server.ts";
import { requireDevelopment } from "#app/utils/dev-only.server.ts";
import { requireViewer } from "#app/utils/session.server.ts";
import {
  handleStripeEvent,
  localEvent,
  requireSubscribableMember,
  simulatedCheckoutSession,
} from "#app/utils/subscriptions.server.ts";

export const meta: MetaFunction = () => [{ title: `Simulated checkout · ${PRODUCT_NAME}` }];

// The local stand-in for Stripe Checkout (no STRIPE_SECRET_KEY): completing it makes a
// checkout.session.completed event and hands it to the same code as a verified webhook.
const target = z.object({ organizationId: z.uuid(), memberUserId: z.uuid() });

function parseTarget(values: Record<string, unknown>) {
  const parsed = target.safeParse(values);
  if (!parsed.success) throw new Response("This checkout link is incomplete.", { status: 400 });
  return parsed.data;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  requireDevelopment(context);
  const viewer = await requireViewer(request, context);
  const input = parseTarget(Object.fromEntries(new URL(request.url).searchParams));
  const membership = await requireSubscribableMember(context, viewer.id, input);
  return { ...input, memberName: membership.memberName, organizationName: membership.organizationName, active: membership.subscriptionStatus === "active" };
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireDevelopment(context);
  const viewer = await requireViewer(request, context);
  const formData = await request.formData();
  const input = parseTarget(Object.fromEntries(formData));
  const membership = await requireSubscribableMember(context, viewer.id, input);
  if (formData.get("intent") !== "complete") {
    return redirectWithToast(context.env, request, "/dashboard", { title: "Checkout cancelled", description: "No payment was taken." });
  }
  const session = simulatedCheckoutSession({ ...input, adminUserId: viewer.id });
  await handleStripeEvent(context, localEvent("checkout.session.completed", session));
  return redirectWithToast(context.env, request, "/dashboard", {
    title: "Subscription active",
    description: `${membership.memberName} is subscribed (${MEMBER_PRICE_LABEL} per month).`,
  });
}

export default function SimulatedCheckout() {
  const { organizationId, memberUserId, memberName, organizationName, active } = useLoaderData<typeof loader>();
  return (
    <div className="flex min-h-dvh flex-col">
      <LogoHeader />
      <main className="mx-auto grid w-full max-w-md flex-1 content-start gap-4 px-4 py-10">
        <Card>
          <CardHeader>
            <CardTitle as="h1" className="text-2xl">
              Simulated checkout
            </CardTitle>
            <CardDescription>
              No payment is taken: this page stands in for Stripe Checkout while no Stripe key is configured.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
              <dt className="text-muted-foreground">Product</dt>
              <dd>{SUBSCRIPTION_PRODUCT}</dd>
              <dt className="text-muted-foreground">Member</dt>
              <dd className="break-words">{memberName}</dd>
              <dt className="text-muted-foreground">Organisation</dt>
              <dd className="break-words">{organizationName}</dd>
              <dt className="text-muted-foreground">Price</dt>
              <dd className="font-semibold">{`${MEMBER_PRICE_LABEL} per month`}</dd>
            </dl>
            {active ? (
              <p role="status" className="mt-4 text-sm font-medium">
                {memberName} already has an active subscription.
              </p>
            ) : null}
          </CardContent>
          <CardFooter>
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
          </CardFooter>
        </Card>
      </main>
    </div>
  );
}
