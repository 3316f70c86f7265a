/// <reference types="node" />
// A recording HTTP server for the local fakes of outside APIs (fake-stripe.ts, fake-cloudflare.ts),
// run by Vitest in Node before the Workers pool starts. Every request is recorded and listed at
// GET /__requests, so a test can assert what the app sent.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

type Recorded = { method: string; path: string; body: string; authorization: string | null };
export type FakeRequest = { method: string; path: string; count: number; body: string };
/** A JSON answer, or with `contentType` the body (a string) as it is. */
export type FakeAnswer = { status: number; body: unknown; contentType?: string };

/** Starts the server on a free local port; `answer` says what each recorded request gets. */
export async function startFakeApi(answer: (request: FakeRequest) => FakeAnswer) {
  const requests: Recorded[] = [];
  const server = createServer(async (request, response) => {
    let body = "";
    for await (const chunk of request) body += chunk;
    const path = request.url ?? "/";
    const json = ({ status, body: value, contentType }: FakeAnswer) => {
      const text = contentType ? String(value) : JSON.stringify(value);
      response.writeHead(status, {
        "Content-Type": contentType ?? "application/json",
        "Content-Length": Buffer.byteLength(text),
      });
      response.end(text);
    };
    if (path === "/__requests") return json({ status: 200, body: requests });
    const method = request.method ?? "GET";
    requests.push({ method, path, body, authorization: request.headers.authorization ?? null });
    json(answer({ method, path, count: requests.length, body }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
