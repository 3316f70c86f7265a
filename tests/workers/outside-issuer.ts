/// <reference types="node" />
// Other issuers, whom nobody on this team wrote: badges and credentials signed in Node by Vitest
// before the Workers pool starts, with the libraries of scripts/badges/outside-issuer.mjs (they do
// not load in workerd), asked for over HTTP by the import tests (issue 32, decision 069).
//
// POST /credential, /jwt, /ob2 with that module's options answer what it makes: the credential or
// token and the documents its issuer would host (DID document, status list, BadgeClass, profile,
// key, revocation list), which the tests publish through the dev stand-in for the web.
// POST /jwt-verify {token} answers whether `jose` accepts the VC-JWT; /bake-png, /bake-svg answer
// a baked image (base64 for PNG).
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";
import { outsideIssuer } from "../../scripts/badges/outside-issuer.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    outsideIssuerUrl: string;
    /** 1EdTech's validator test image (tests/fixtures/ob2/public_domain_heart.png), base64. */
    publishedPng: string;
  }
}

export default async function setup(project: TestProject) {
  const issuer = await outsideIssuer();
  const routes: Record<string, (asked: never) => unknown> = {
    "/credential": issuer.credential,
    "/jwt": issuer.jwt,
    "/jwt-verify": issuer.verifyJwt,
    "/ob2": issuer.openBadge2,
    "/bake-png": issuer.bakePng,
    "/bake-svg": issuer.bakeSvg,
  };
  const server = createServer(async (request, response) => {
    let body = "";
    for await (const chunk of request) body += chunk;
    try {
      const route = routes[request.url ?? ""];
      if (!route) throw new Error(`no route ${request.url}`);
      const answer = await route(JSON.parse(body) as never);
      response.writeHead(200, { "Content-Type": "application/json" });
      response.end(JSON.stringify(answer));
    } catch (error) {
      response.writeHead(500, { "Content-Type": "text/plain" });
      response.end(String(error instanceof Error ? error.stack : error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const png = new URL("../fixtures/ob2/public_domain_heart.png", import.meta.url);
  project.provide("publishedPng", readFileSync(png).toString("base64"));
  project.provide("outsideIssuerUrl", `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
