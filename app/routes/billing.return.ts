import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { redirectWithToast } from "#app/utils/cookies.server.ts";
import { requireUser } from "#app/utils/session.server.ts";

// Where Stripe Checkout sends the payer back (in the tab it opened). The subscription itself
// changes only when the verified webhook arrives, which may be a moment later.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  const completed = new URL(request.url).searchParams.get("checkout") === "complete";
  return redirectWithToast(
    context.env,
    request,
    "/dashboard",
    completed
      ? { title: "Checkout complete", description: "The subscription starts as soon as Stripe confirms the payment." }
      : { title: "Checkout cancelled", description: "No payment was taken." },
  );
}
