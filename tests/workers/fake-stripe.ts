/// <reference types="node" />
// A local fake of the few Stripe API endpoints the app calls, run by Vitest (in Node) before the
// Workers pool starts. Tests aim the SDK at it through STRIPE_API_BASE, so none reaches Stripe.
import { startFakeApi } from "./fake-api.ts";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    stripeApiBase: string;
  }
}

export default async function setup(project: TestProject) {
  // Subscriptions named `sub_down_<n>_…` fail their first n cancels (Stripe unavailable: 503, which
  // the SDK retries once); `sub_gone_…` no longer exist at Stripe (404 resource_missing).
  const attempts = new Map<string, number>();
  const fake = await startFakeApi(({ method, path, count }) => {
    if (method === "POST" && path === "/v1/billing_portal/sessions") {
      const id = `bps_test_${count}`;
      return {
        status: 200,
        body: { id, object: "billing_portal.session", url: `https://billing.stripe.test/p/session/${id}` },
      };
    }
    if (method === "POST" && path === "/v1/checkout/sessions") {
      const id = `cs_test_${count}`;
      return {
        status: 200,
        body: { id, object: "checkout.session", mode: "subscription", url: `https://checkout.stripe.test/c/pay/${id}` },
      };
    }
    const cancel = /^\/v1\/subscriptions\/([^/?]+)$/.exec(path);
    if (method === "DELETE" && cancel) {
      const id = cancel[1]!;
      const down = /^sub_down_(\d+)_/.exec(id);
      const attempt = (attempts.get(id) ?? 0) + 1;
      attempts.set(id, attempt);
      if (down && attempt <= Number(down[1])) {
        return { status: 503, body: { error: { type: "api_error", message: "Stripe is unavailable (fake)" } } };
      }
      if (id.startsWith("sub_gone_")) {
        return {
          status: 404,
          body: {
            error: {
              type: "invalid_request_error",
              code: "resource_missing",
              message: `No such subscription: '${id}'`,
            },
          },
        };
      }
      return {
        status: 200,
        body: { id: cancel[1], object: "subscription", status: "canceled", customer: "cus_fake", metadata: {} },
      };
    }
    return {
      status: 404,
      body: { error: { type: "invalid_request_error", message: `No fake for ${method} ${path}` } },
    };
  });
  project.provide("stripeApiBase", fake.base);
  return fake.close;
}
