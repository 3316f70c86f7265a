import http from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "@playwright/test";
import { afterAll, expect, it } from "vitest";
import { oneConnectionPerCall } from "#tests/e2e/one-connection-per-call.ts";

// Decision 095: the e2e tests' calls through Playwright's request API never share a connection,
// so none can be sent on one that the server is closing for idleness.

const keepSocketAlive = http.Agent.prototype.keepSocketAlive;
afterAll(() => {
  http.Agent.prototype.keepSocketAlive = keepSocketAlive;
});

/** How many connections a local server saw for three calls through a request context of Playwright. */
async function connectionsForThreeCalls() {
  let connections = 0;
  const server = http.createServer((_request, response) => response.end("ok"));
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const context = await request.newContext({ baseURL: `http://127.0.0.1:${port}` });
  try {
    for (let call = 0; call < 3; call++) await (await context.post("/", { data: { call } })).body();
  } finally {
    await context.dispose();
    server.closeAllConnections();
    server.close();
  }
  return connections;
}

it("Playwright's request API reuses a connection on its own, and never once the e2e fixtures load", async () => {
  expect(await connectionsForThreeCalls()).toBe(1);
  oneConnectionPerCall();
  expect(await connectionsForThreeCalls()).toBe(3);
});
