import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { confirmLink, readLink, type LinkState } from "#app/services/other-addresses.server.ts";
import { OTHER_ADDRESS_LINK_HOURS, PRODUCT_NAME } from "#app/utils/constants.ts";
import { redirectWithToast } from "#app/utils/cookies.server.ts";
import { errorSummary, UNEXPECTED_FAILURE } from "#app/utils/form-reply.server.ts";
import { log } from "#app/utils/log.server.ts";
import { requireViewer } from "#app/utils/session.server.ts";
import { useViewer } from "#app/utils/use-viewer.ts";

// The link mailed to another e-mail address of an account (decision 068). It needs the account
// that added the address, signed in (signed out: sign in, then back here), so that whoever opens
// the mail cannot attach the address to an account that is not theirs, nor to their own an
// address another account asked for. The GET only shows the link's state; confirming is the
// page's POST, so link scanners and prefetchers, which only GET, confirm nothing.

export const meta: MetaFunction = () => [{ title: `Confirm email address · ${PRODUCT_NAME}` }];

/** What the page shows: the link's state, without the address's row id unless a new link may be asked for. */
const CONFIRM_FAILURE = "Error confirming email address";

const view = (state: LinkState, token: string) => ({
  token,
  state:
    state.kind === "invalid" || state.kind === "another-account"
      ? state
      : { kind: state.kind, address: state.address, ...(state.kind === "expired" ? { id: state.id } : {}) },
});

export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return view(await readLink(context, { userId: viewer.id, token: token.slice(0, 200) }), token);
}

export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const token = String((await request.formData()).get("token") ?? "").slice(0, 200);
  let state: LinkState;
  try {
    ({ state } = await confirmLink(context, { userId: viewer.id, token }));
  } catch (error) {
    if (error instanceof Response) throw error;
    // D1 failing: the same link again, with the reason, to try once more (issue 34's fault table).
    log("error", "action failed", { title: CONFIRM_FAILURE, requestId: context.requestId, error: errorSummary(error) });
    return redirectWithToast(
      context.env,
      request,
      `${new URL(request.url).pathname}?token=${encodeURIComponent(token)}`,
      {
        title: CONFIRM_FAILURE,
        description: UNEXPECTED_FAILURE,
        variant: "destructive",
      },
    );
  }
  // Confirmed now, or by this same form a moment ago (a double submit): the same answer.
  if (state.kind === "confirmed") {
    return redirectWithToast(context.env, request, "/settings/addresses", {
      title: "Address confirmed",
      description: `${state.address} is confirmed. Credentials issued to it can now be imported to your passport.`,
    });
  }
  return data(view(state, token), { status: state.kind === "another-account" ? 403 : 400 });
}

export default function ConfirmOtherAddress() {
  const loaded = useLoaderData<typeof loader>();
  const answered = useActionData<typeof action>();
  const { state, token } = answered ?? loaded;
  const viewer = useViewer();
  const settings = (
    <Link to="/settings/addresses" className={buttonVariants({ variant: "outline" })}>
      Back to Settings
    </Link>
  );

  switch (state.kind) {
    case "ready":
      return (
        <Frame
          title="Confirm your email address"
          description={`Add ${state.address} to your account as another email address? Credentials issued to it can then be imported to your passport. You keep signing in with ${viewer.email}.`}
        >
          <Form method="post" className="flex flex-wrap gap-3">
            <input type="hidden" name="token" value={token} />
            <SubmitButton pendingText="Confirming...">Confirm address</SubmitButton>
            <Link to="/settings/addresses" className={buttonVariants({ variant: "outline" })}>
              Cancel
            </Link>
          </Form>
        </Frame>
      );
    case "confirmed":
      return (
        <Frame title="Address confirmed" description={`${state.address} is confirmed on your account.`}>
          {settings}
        </Frame>
      );
    case "expired":
      return (
        <Frame
          title="This link has expired"
          description={`A link works for ${OTHER_ADDRESS_LINK_HOURS} hours. Send a new one to ${state.address} and open it from your inbox.`}
        >
          <Form method="post" action="/settings/addresses" className="flex flex-wrap gap-3">
            <input type="hidden" name="addressId" value={"id" in state ? state.id : ""} />
            <SubmitButton intent="resend-other-address" pendingText="Sending...">
              Send a new link
            </SubmitButton>
            {settings}
          </Form>
        </Frame>
      );
    case "taken":
      return (
        <Frame
          title="This address cannot be added"
          description={`${state.address} is already in use by another account, so it cannot be confirmed for yours. If that account is yours too, remove the address there first, or import your credentials while signed in to it.`}
        >
          {settings}
        </Frame>
      );
    case "another-account":
      return (
        <Frame
          title="This link is for another account"
          description={`The address was added by a different account from the one you are signed in to (${viewer.email}). Sign out, sign in to the account that added it, then open the link again.`}
        >
          <div className="flex flex-wrap gap-3">
            <Form method="post" action="/auth/signout">
              <Button type="submit">Sign Out</Button>
            </Form>
            {settings}
          </div>
        </Frame>
      );
    default:
      return (
        <Frame
          title="This link is not valid"
          description="It may have been replaced by a newer link, or the address was removed. Add the address again in Settings to get a new link."
        >
          {settings}
        </Frame>
      );
  }
}

function Frame({ title, description, children }: { title: string; description: string; children: React.ReactNode }) {
  return (
    <div className="mx-auto grid max-w-lg gap-6">
      <Card>
        <CardHeader>
          <CardTitle as="h1" className="text-2xl">
            {title}
          </CardTitle>
          <CardDescription className="break-words">{description}</CardDescription>
        </CardHeader>
        <CardContent>{children}</CardContent>
      </Card>
    </div>
  );
}
