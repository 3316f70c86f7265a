import { Hono } from "hono";
import Stripe from "stripe";
import type { WorkerEnv } from "../types.ts";

export const STRIPE_WEBHOOK_PATH = "/api/stripe/webhook";

// Stripe calls this cross-site, so it is exempt from the Origin check and proves itself with
// its signature instead. Without a configured secret there is nothing to verify against.
export const stripeWebhookRoutes = new Hono<WorkerEnv>().post("/", async (c) => {
  const secret = c.env.STRIPE_WEBHOOK_SECRET;
  const signature = c.req.header("Stripe-Signature");
  if (!secret) return c.text("Stripe webhooks are not configured", 404);
  if (!signature) return c.text("Missing Stripe-Signature", 400);
  try {
    const event = await Stripe.webhooks.constructEventAsync(
      await c.req.text(),
      signature,
      secret,
      undefined,
      Stripe.createSubtleCryptoProvider(),
    );
    return c.json({ received: true, type: event.type });
  } catch {
    return c.text("Invalid signature", 400);
  }
});
