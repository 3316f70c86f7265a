import type { AppLoadContext } from "@remix-run/cloudflare";

/** Local stand-ins (dev mailbox, simulated checkout) do not exist in production. */
export function requireDevelopment(context: AppLoadContext) {
  if (context.env.ENVIRONMENT === "production") throw new Response("Not Found", { status: 404 });
}

/** The simulated checkout and portal: outside production, and never once Stripe is configured. */
export function requireSimulatedBilling(context: AppLoadContext) {
  requireDevelopment(context);
  if (context.env.STRIPE_SECRET_KEY) throw new Response("Not Found", { status: 404 });
}
