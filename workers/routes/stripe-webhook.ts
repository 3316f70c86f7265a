import { Hono } from "hono";
import { handleStripeEvent } from "#app/utils/subscriptions.server.ts";
import { verifyStripeEvent } from "#app/utils/stripe.server.ts";
import { cloudflareContext, getLoadContext } from "../load-context.ts";
import type { WorkerEnv } from "../types.ts";

export const STRIPE_WEBHOOK_PATH = "/api/stripe/webhook";

// Stripe calls this cross-site, so it is exempt from the Origin check and proves itself with
// its signature instead (bad or older than five minutes: 400, and Stripe retries). Without a
// configured secret there is nothing to verify against. A 200 tells Stripe to stop retrying,
// so events we cannot place (an unknown member) are answered 200 and logged.
export const stripeWebhookRoutes = new Hono<WorkerEnv>().post("/", async (c) => {
  const secret = c.env.STRIPE_WEBHOOK_SECRET;
  const signature = c.req.header("Stripe-Signature");
  if (!secret) return c.text("Stripe webhooks are not configured", 404);
  if (!signature) return c.text("Missing Stripe-Signature", 400);
  let event;
  try {
    event = await verifyStripeEvent(await c.req.text(), signature, secret);
  } catch {
    return c.text("Invalid signature", 400);
  }
  const context = getLoadContext({ request: c.req.raw, context: cloudflareContext(c), requestId: c.get("requestId") });
  const outcome = await handleStripeEvent(context, event);
  return c.json({ received: true, type: event.type, outcome });
});
