/// <reference types="node" />
// A wallet nobody on this team wrote: the DIDAuth presentation of the Learner Credential Wallet,
// built in Node by Vitest before the Workers pool starts, with the libraries the wallet itself
// uses (its app/lib/present.ts `createVerifiablePresentation`: `@digitalcredentials/vc`'s
// createPresentation and signPresentation, an Ed25519Signature2020 suite, a did:key from
// `@digitalcredentials/did-method-key`). These libraries do not load in workerd, so the tests ask
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

declare module "vitest" {
  export interface ProvidedContext {
    lcwWalletUrl: string;
  }
}

type Asked = {
  challenge: string;
  domain?: string;
  version?: 1 | 2;
  suite?: "Ed25519Signature2020" | "eddsa-rdfc-2022";
  signer?: "holder" | "unlisted";
};

/** The wallet's libraries, loaded in Node: its DIDAuth, and a DIDAuth checked as anyone can (also for tests/e2e). */
export async function lcwWallet() {
  const vc = await import("@digitalcredentials/vc");
  const { Ed25519Signature2020 } = await import("@digitalcredentials/ed25519-signature-2020");
  const { Ed25519VerificationKey2020 } = await import("@digitalcredentials/ed25519-verification-key-2020");
  const didKey = await import("@digitalcredentials/did-method-key");
  const { DataIntegrityProof } = await import("@digitalcredentials/data-integrity");
  const { cryptosuite } = await import("@digitalcredentials/eddsa-rdfc-2022-cryptosuite");
  const { securityLoader } = await import("@digitalcredentials/security-document-loader");
  // Its bundled contexts only: this process is offline (tests/workers/dcc-verifier.ts).
  const documentLoader = securityLoader({ fetchRemoteContexts: false }).build();
  const driver = didKey.driver();
  driver.use({ multibaseMultikeyHeader: "z6Mk", fromMultibase: Ed25519VerificationKey2020.from });

  /** A new wallet DID and its authentication key pair, as the wallet mints one (app/lib/did.ts). */
  async function mintDid() {
    const key = await Ed25519VerificationKey2020.generate();
    const { didDocument, methodFor } = await driver.fromKeyPair({ verificationKeyPair: key });
    // The DID document's authentication method is this key (its public half): sign with the pair.
    const { id, controller } = methodFor({ purpose: "authentication" });
    Object.assign(key, { id, controller });
    return { did: didDocument.id, key };
  }

  async function didAuth({ challenge, domain, version = 2, suite = "Ed25519Signature2020", signer = "holder" }: Asked) {
    const { did, key: own } = await mintDid();
    let key = own;
    if (signer === "unlisted") {
      key = await Ed25519VerificationKey2020.generate();
      key.controller = did;
      key.id = `${did}#${key.fingerprint()}`;
    }
    const signingSuite =
      suite === "Ed25519Signature2020"
        ? new Ed25519Signature2020({ key })
        : // The 2020 key's signer, named as the Data Integrity suite asks.
          new DataIntegrityProof({ signer: { ...(key.signer() as object), algorithm: "Ed25519" }, cryptosuite });
    const presentation = vc.createPresentation({ holder: did, version: version === 1 ? 1.0 : 2.0 });
    const signed = await vc.signPresentation({ presentation, suite: signingSuite, challenge, domain, documentLoader });
    return { did, presentation: signed };
  }

  /** Whether `presentation` authenticates its holder over `challenge` (and `domain`), as the wallet's libs verify. */
  async function verifyDidAuth({
    presentation,
    challenge,
    domain,
  }: {
    presentation: object;
    challenge: string;
    domain?: string;
  }) {
    const result = await vc.verify({
      presentation,
      challenge,
      domain,
      suite: [new Ed25519Signature2020(), new DataIntegrityProof({ cryptosuite })],
      documentLoader,
    });
    return {
      verified: Boolean(result.verified),
      error: result.error ? String(result.error.message ?? result.error) : undefined,
    };
  }

  return { didAuth, verifyDidAuth };
}

export default async function setup(project: TestProject) {
  const { didAuth, verifyDidAuth } = await lcwWallet();
  const server = createServer(async (request, response) => {
    let body = "";
    for await (const chunk of request) body += chunk;
    try {
      const asked = JSON.parse(body);
      const answer = request.url === "/verify" ? await verifyDidAuth(asked) : await didAuth(asked as Asked);
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
