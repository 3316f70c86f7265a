/// <reference types="node" />
// A wallet nobody on this team wrote: the DIDAuth presentation of the Learner Credential Wallet,
// built in Node by Vitest before the Workers pool starts, with the libraries the wallet itself
// uses (scripts/wallet/lcw-didauth.mjs). These libraries do not load in workerd, so the tests ask
// this server for a signed presentation and post it to the app themselves (decision 064).
//
// POST /didauth {challenge, domain?, version: 1 | 2, suite: "Ed25519Signature2020" | "eddsa-rdfc-2022",
// signer?: "holder" | "unlisted"} answers {did, presentation}: a fresh did:key each time; with
// "unlisted", signed by another key that claims to be one of that DID's (the DID lists only its own).
//
// POST /verify {presentation, challenge, domain?} answers {verified, error?}: a DIDAuth checked as
// anyone can check a stored proof of acceptance (decision 066), with `@digitalcredentials/vc`'s
// `verify` and its AuthenticationProofPurpose (challenge, domain), the did:key resolved locally.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";
import { lcwWallet, type DidAuthRequest } from "../../scripts/wallet/lcw-didauth.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    lcwWalletUrl: string;
  }
}

// The wallet's libraries, loaded in Node, also for tests/e2e.
export { lcwWallet };

export default async function setup(project: TestProject) {
  const { didAuth, verifyDidAuth } = await lcwWallet();
  const server = createServer(async (request, response) => {
    let body = "";
    for await (const chunk of request) body += chunk;
    try {
      const asked = JSON.parse(body);
      const answer = request.url === "/verify" ? await verifyDidAuth(asked) : await didAuth(asked as DidAuthRequest);
      response.writeHead(200, { "Content-Type": "application/json" });
      response.end(JSON.stringify(answer));
    } catch (error) {
      response.writeHead(500, { "Content-Type": "text/plain" });
      response.end(String(error instanceof Error ? error.stack : error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  project.provide("lcwWalletUrl", `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
