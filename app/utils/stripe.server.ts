import type { AppLoadContext } from "@remix-run/cloudflare";
import Stripe from "stripe";
import { findMembershipSubscription } from "#db/queries/memberships/billing.ts";
import type { AppEnv } from "./env.server.ts";

/** The settings the Stripe client is made from (the app's env, or the cron's). */
export type StripeSettings = Pick<AppEnv, "STRIPE_SECRET_KEY" | "STRIPE_API_BASE">;

/**
 * The Stripe client, or null when no key is set (local development, tests: the simulated
 * checkout stands in). Workers have no Node http module, so the SDK uses fetch; tests aim it at
 * a local fake through STRIPE_API_BASE, so no test reaches the internet.
 */
export function stripeClient(env: StripeSettings) {
  if (!env.STRIPE_SECRET_KEY) return null;
  const base = env.STRIPE_API_BASE ? new URL(env.STRIPE_API_BASE) : null;
  return new Stripe(env.STRIPE_SECRET_KEY, {
    httpClient: Stripe.createFetchHttpClient(),
    maxNetworkRetries: 1,
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === "https:" ? 443 : 80),
          protocol: base.protocol === "https:" ? ("https" as const) : ("http" as const),
        }
      : {}),
  });
}

/** Verifies a webhook with Web Crypto: the synchronous verifier needs Node's crypto. */
export function verifyStripeEvent(payload: string, signature: string, secret: string) {
  return Stripe.webhooks.constructEventAsync(
    payload,
    signature,
    secret,
    undefined,
    Stripe.createSubtleCryptoProvider(),
  );
}

/**
 * A membership about to be deleted (removed, left, rejected) stops its Stripe subscription first,
 * so nobody keeps paying for a member who is gone. Without Stripe there is nothing to stop.
 */
export async function cancelStripeSubscriptionOf(context: Pick<AppLoadContext, "env" | "db">, membershipId: string) {
  if (!stripeClient(context.env)) return;
  const row = await findMembershipSubscription(context.db, { membershipId });
  if (row)
    await cancelStripeSubscription(context, { subscriptionId: row.subscriptionId, subscriptionStatus: row.status });
}

/** The same for a membership already read (with its subscription), at no further round trip. */
export async function cancelStripeSubscription(
  context: { env: StripeSettings },
  membership: { subscriptionId: string | null; subscriptionStatus: string },
) {
  const stripe = stripeClient(context.env);
  if (stripe && membership.subscriptionId && membership.subscriptionStatus === "active") {
    await stripe.subscriptions.cancel(membership.subscriptionId).catch((error: unknown) => {
      // Already gone at Stripe (its webhook not yet here, or lost): the subscription has ended.
      if (!(error instanceof Stripe.errors.StripeInvalidRequestError && error.code === "resource_missing")) throw error;
    });
  }
}
