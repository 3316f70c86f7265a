import { Hono } from "hono";
import { handleStripeEvent } from "#app/services/stripe-events.server.ts";
import { verifyStripeEvent } from "#app/utils/stripe.server.ts";
import type { WorkerEnv } from "../types.ts";
import { securityEvent } from "#app/utils/log.server.ts";

/** A message from the verifier, with anything that looks like a key or a signature taken out. */
function redactSecrets(message: string, secret: string) {
  return message
    .split(secret)
    .join("[secret]")
    .replace(/\b(?:whsec|sk|rk)_[A-Za-z0-9_]+/g, "[secret]")
    .replace(/\bv1=[0-9a-f]+/g, "v1=[signature]")
    .slice(0, 200);
}

export const STRIPE_WEBHOOK_PATH = "/api/stripe/webhook";

// Stripe calls this cross-site, so it is exempt from the Origin check and proves itself with
// its signature instead (bad or older than five minutes: 400, and Stripe retries). Without a
// configured secret there is nothing to verify against. A 200 tells Stripe to stop retrying,
// so events we cannot place (an unknown member) are answered 200 and logged.
export const stripeWebhookRoutes = new Hono<WorkerEnv>().post("/", async (c) => {
  const secret = c.env.STRIPE_WEBHOOK_SECRET;
  const signature = c.req.header("Stripe-Signature");
  if (!secret) return c.text("Stripe webhooks are not configured", 404);
  if (!signature) {
    securityEvent("webhook.refused", { reason: "missing signature", requestId: c.get("requestId") });
    return c.text("Missing Stripe-Signature", 400);
  }
  let event;
  try {
    event = await verifyStripeEvent(await c.req.text(), signature, secret);
  } catch (error) {
    // The library's message names what failed (timestamp, no matching signature), never the secret.
    securityEvent("webhook.refused", {
      reason: "invalid signature",
      detail: redactSecrets(String(error), secret),
      requestId: c.get("requestId"),
    });
    return c.text("Invalid signature", 400);
  }
  const outcome = await handleStripeEvent(c.get("loadContext"), event);
  return c.json({ received: true, type: event.type, outcome });
});
