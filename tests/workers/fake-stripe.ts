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
  const fake = await startFakeApi(({ method, path, count }) => {
    if (method === "POST" && path === "/v1/checkout/sessions") {
      const id = `cs_test_${count}`;
      return {
        status: 200,
        body: { id, object: "checkout.session", mode: "subscription", url: `https://checkout.stripe.test/c/pay/${id}` },
      };
    }
    const cancel = /^\/v1\/subscriptions\/([^/?]+)$/.exec(path);
    if (method === "DELETE" && cancel) {
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
