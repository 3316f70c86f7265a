// The Learner Credential Wallet's DIDAuth, made with the libraries the wallet itself uses (its
// app/lib/present.ts `createVerifiablePresentation`: `@digitalcredentials/vc`'s createPresentation
// and signPresentation, an Ed25519Signature2020 suite, a did:key from
// `@digitalcredentials/did-method-key`, minted as its app/lib/did.ts does). Node only (these
// libraries do not load in workerd): the Workers tests reach it through tests/workers/lcw-wallet.ts,
// and `npm run bench` calls it directly (scripts/bench/wallet.mjs).

/**
 * The wallet's libraries, loaded: `didAuth` signs a DIDAuth presentation over a challenge with a
 * fresh wallet DID each time; `verifyDidAuth` checks one as anyone can, with the same libraries.
 */
export async function lcwWallet() {
  const vc = await import("@digitalcredentials/vc");
  const { Ed25519Signature2020 } = await import("@digitalcredentials/ed25519-signature-2020");
  const { Ed25519VerificationKey2020 } = await import("@digitalcredentials/ed25519-verification-key-2020");
  const didKey = await import("@digitalcredentials/did-method-key");
  const { DataIntegrityProof } = await import("@digitalcredentials/data-integrity");
  const { cryptosuite } = await import("@digitalcredentials/eddsa-rdfc-2022-cryptosuite");
  const { securityLoader } = await import("@digitalcredentials/security-document-loader");
  // Its bundled contexts only: nothing here goes online.
  const documentLoader = securityLoader({ fetchRemoteContexts: false }).build();
  const driver = didKey.driver();
  driver.use({ multibaseMultikeyHeader: "z6Mk", fromMultibase: Ed25519VerificationKey2020.from });

  /**
   * A new wallet DID and its authentication key pair, as the wallet mints one (app/lib/did.ts); from
   * `seed` (64 hex digits), the same one each time, as one wallet signing twice.
   */
  async function mintDid(seed) {
    const key = await Ed25519VerificationKey2020.generate(seed ? { seed: Buffer.from(seed, "hex") } : undefined);
    const { didDocument, methodFor } = await driver.fromKeyPair({ verificationKeyPair: key });
    // The DID document's authentication method is this key (its public half): sign with the pair.
    const { id, controller } = methodFor({ purpose: "authentication" });
    Object.assign(key, { id, controller });
    return { did: didDocument.id, key };
  }

  /**
   * A did:web wallet DID on `host` and its key; its DID document, which the caller publishes at
   * https://{host}/.well-known/did.json, lists the key for authentication.
   */
  async function webDid(host) {
    const did = `did:web:${host}`;
    const key = await Ed25519VerificationKey2020.generate({ id: `${did}#key-1`, controller: did });
    const didDocument = {
      "@context": ["https://www.w3.org/ns/did/v1", "https://w3id.org/security/suites/ed25519-2020/v1"],
      id: did,
      verificationMethod: [key.export({ publicKey: true, includeContext: false })],
      authentication: [key.id],
    };
    return { did, key, didDocument };
  }

  async function didAuth({
    challenge,
    domain,
    version = 2,
    suite = "Ed25519Signature2020",
    signer = "holder",
    webHost,
    seed,
  }) {
    const { did, key: own, didDocument } = webHost ? await webDid(webHost) : await mintDid(seed);
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
          new DataIntegrityProof({ signer: { ...key.signer(), algorithm: "Ed25519" }, cryptosuite });
    const presentation = vc.createPresentation({ holder: did, version: version === 1 ? 1.0 : 2.0 });
    const signed = await vc.signPresentation({ presentation, suite: signingSuite, challenge, domain, documentLoader });
    return { did, presentation: signed, ...(webHost ? { didDocument } : {}) };
  }

  /** Whether `presentation` authenticates its holder over `challenge` (and `domain`), by the wallet's libraries. */
  async function verifyDidAuth({ presentation, challenge, domain }) {
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
