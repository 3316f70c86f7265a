/// <reference types="node" />
// A local fake of the few Stripe API endpoints the app calls, run by Vitest (in Node) before the
// Workers pool starts. Tests aim the SDK at it through STRIPE_API_BASE, so none reaches Stripe.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    stripeApiBase: string;
  }
}

type Recorded = { method: string; path: string; body: string; authorization: string | null };

export default async function setup(project: TestProject) {
  const requests: Recorded[] = [];
  const server = createServer(async (request, response) => {
    let body = "";
    for await (const chunk of request) body += chunk;
    const path = request.url ?? "/";
    const json = (status: number, value: unknown) => {
      response.writeHead(status, { "Content-Type": "application/json" });
      response.end(JSON.stringify(value));
    };
    if (path === "/__requests") return json(200, requests);
    requests.push({
      method: request.method ?? "GET",
      path,
      body,
      authorization: request.headers.authorization ?? null,
    });
    if (request.method === "POST" && path === "/v1/checkout/sessions") {
      const id = `cs_test_${requests.length}`;
      return json(200, {
        id,
        object: "checkout.session",
        mode: "subscription",
        url: `https://checkout.stripe.test/c/pay/${id}`,
      });
    }
    const cancel = /^\/v1\/subscriptions\/([^/?]+)$/.exec(path);
    if (request.method === "DELETE" && cancel) {
      return json(200, {
        id: cancel[1],
        object: "subscription",
        status: "canceled",
        customer: "cus_fake",
        metadata: {},
      });
    }
    return json(404, { error: { type: "invalid_request_error", message: `No fake for ${request.method} ${path}` } });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  project.provide("stripeApiBase", `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
