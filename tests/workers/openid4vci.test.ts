import { createExecutionContext, createScheduledController, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import worker from "#workers/test-app.ts";
import { RATE_LIMITS } from "#app/utils/rate-limit.server.ts";
import { countRows, get, newClientNetwork, ORIGIN } from "./helpers.ts";
import { credentialJson, dccVerify, issuedCredential, verified, type Credential } from "./credentials-helpers.ts";
import {
  CONFIGURATION_ID,
  openid4vciWallet,
  openOffer,
  signJwt,
  walletKey,
  type WalletKey,
} from "./openid4vci-wallet.ts";

// OpenID4VCI 1.0, pre-authorised code flow (issue 31, decision 065), driven by a wallet library
// nobody here wrote (tests/workers/openid4vci-wallet.ts): the offer read from the person's
// /passport, both metadata documents, the token, the nonce and the credential; what comes back is
// checked by the DCC's verifier-core. The refusals are each posted as a wallet would.

const PRE_AUTHORIZED = "urn:ietf:params:oauth:grant-type:pre-authorized_code";

/** A credential offered on /passport and the wallet's way to it, up to its access token. */
async function tokenFor(key: WalletKey) {
  const { member, achievementId, credentialId } = await issuedCredential({ title: "OpenID Award" });
  const offer = await openOffer(member.cookie, achievementId);
  const wallet = openid4vciWallet(key);
  const credentialOffer = await wallet.resolveCredentialOffer(offer.link);
  const issuerMetadata = await wallet.resolveIssuerMetadata(credentialOffer.credential_issuer);
  const { accessTokenResponse } = await wallet.retrievePreAuthorizedCodeAccessTokenFromOffer({
    credentialOffer,
    issuerMetadata,
    txCode: offer.txCode,
  });
  return {
    member,
    achievementId,
    credentialId,
    offer,
    wallet,
    credentialOffer,
    issuerMetadata,
    accessToken: accessTokenResponse.access_token,
  };
}

const post = (path: string, init: { body: string; headers?: Record<string, string> }) =>
  SELF.fetch(`${ORIGIN}${path}`, {
    method: "POST",
    body: init.body,
    headers: { "cf-connecting-ip": newClientNetwork(), ...init.headers },
  });

const tokenRequest = (code: string, txCode?: string) =>
  post("/openid4vci/token", {
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: PRE_AUTHORIZED,
      "pre-authorized_code": code,
      ...(txCode ? { tx_code: txCode } : {}),
    }).toString(),
  });

async function freshNonce() {
  const response = await post("/openid4vci/nonce", { body: "" });
  expect(response.status).toBe(200);
  return ((await response.json()) as { c_nonce: string }).c_nonce;
}

/** A proof JWT as the spec shapes it, with `change` applied to its header and payload. */
function proofJwt(
  key: WalletKey,
  nonce: string,
  change: { header?: object; payload?: object; signer?: WalletKey } = {},
) {
  return signJwt(
    change.signer ?? key,
    { typ: "openid4vci-proof+jwt", alg: key.alg, kid: key.kid, ...change.header },
    { aud: ORIGIN, iat: Math.floor(Date.now() / 1000), nonce, ...change.payload },
  );
}

const credentialRequest = (accessToken: string, jwt: string, configurationId = CONFIGURATION_ID) =>
  post("/openid4vci/credential", {
    headers: { Authorization: `Bearer ${accessToken}`, "Content-Type": "application/json" },
    body: JSON.stringify({ credential_configuration_id: configurationId, proofs: { jwt: [jwt] } }),
  });

const offerCode = async (link: string) => {
  const uri = new URL(link).searchParams.get("credential_offer_uri")!;
  const offer = (await (await SELF.fetch(uri)).json()) as Credential;
  return offer.grants[PRE_AUTHORIZED]["pre-authorized_code"] as string;
};

describe("OpenID4VCI: a wallet takes a credential with the pre-authorised code", () => {
  it.each([
    ["an Ed25519 did:key", "EdDSA", "did"],
    ["a P-256 did:key", "ES256", "did"],
    ["an Ed25519 jwk", "EdDSA", "jwk"],
    ["a P-256 jwk", "ES256", "jwk"],
  ] as const)("issues the credential to %s, verified by verifier-core", async (_, alg, method) => {
    const key = await walletKey(alg);
    const { offer, wallet, credentialOffer, issuerMetadata, accessToken, credentialId } = await tokenFor(key);
    expect(offer.html).toContain("Other wallets (OpenID4VCI)");
    expect(offer.html).toContain('aria-label="QR code to add OpenID Award to an OpenID4VCI wallet"');
    expect(credentialOffer).toMatchObject({
      credential_issuer: ORIGIN,
      credential_configuration_ids: [CONFIGURATION_ID],
      grants: { [PRE_AUTHORIZED]: { tx_code: { input_mode: "numeric", length: 6 } } },
    });
    expect(issuerMetadata.credentialIssuer.credential_configurations_supported[CONFIGURATION_ID]).toMatchObject({
      format: "ldp_vc",
      cryptographic_binding_methods_supported: ["did:key", "jwk"],
      proof_types_supported: { jwt: { proof_signing_alg_values_supported: ["EdDSA", "ES256"] } },
    });
    expect(issuerMetadata.authorizationServers[0]).toMatchObject({
      issuer: ORIGIN,
      "pre-authorized_grant_anonymous_access_supported": true,
    });

    const { c_nonce } = await wallet.requestNonce({ issuerMetadata });
    const { jwt } = await wallet.createCredentialRequestJwtProof({
      issuerMetadata,
      credentialConfigurationId: CONFIGURATION_ID,
      nonce: c_nonce,
      signer:
        method === "did" ? { method: "did", didUrl: key.kid, alg } : { method: "jwk", publicJwk: key.publicJwk, alg },
    });
    const { credentialResponse, response } = await wallet.retrieveCredentials({
      issuerMetadata,
      accessToken,
      credentialConfigurationId: CONFIGURATION_ID,
      proofs: { jwt: [jwt] },
    });
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(response.headers.get("Set-Cookie")).toBeNull();
    expect(Number(response.headers.get("X-D1-Round-Trips"))).toBeLessThanOrEqual(2);
    expect(credentialResponse.credentials).toHaveLength(1);
    const [first] = credentialResponse.credentials as { credential: Credential }[];
    const issued = first!.credential;
    const stored = await credentialJson(credentialId);
    // Bound to the key that signed the proof, whichever way it was named: its did:key.
    expect(issued.credentialSubject.id).toBe(key.did);
    expect(issued.id).toBe(stored.id);
    expect(issued.credentialSubject.achievement).toEqual(stored.credentialSubject.achievement);
    expect(issued.credentialStatus).toEqual(stored.credentialStatus);
    expect(Date.now() - Date.parse(issued.proof[0].created)).toBeLessThan(60_000);
    expect(await dccVerify(issued)).toMatchObject(verified);
  });

  it("takes the single `proof` of the earlier drafts too", async () => {
    const key = await walletKey();
    const { accessToken } = await tokenFor(key);
    const answer = await post("/openid4vci/credential", {
      headers: { Authorization: `Bearer ${accessToken}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        credential_configuration_id: CONFIGURATION_ID,
        proof: { proof_type: "jwt", jwt: await proofJwt(key, await freshNonce()) },
      }),
    });
    expect(answer.status).toBe(200);
    const { credentials } = (await answer.json()) as { credentials: { credential: Credential }[] };
    expect(credentials[0]!.credential.credentialSubject.id).toBe(key.did);
  });

  it("refuses a pre-authorised code used twice", async () => {
    const { member, offer, credentialOffer } = await tokenFor(await walletKey());
    const code = credentialOffer.grants![PRE_AUTHORIZED]!["pre-authorized_code"] as string;
    const again = await tokenRequest(code, offer.txCode);
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: "invalid_grant" });
    // The offer itself now says it is spent, and the page stops showing it.
    const uri = new URL(offer.link).searchParams.get("credential_offer_uri")!;
    expect((await SELF.fetch(uri)).status).toBe(410);
    const page = await (await get(`/passport?wallet=${offer.exchangeId}`, member.cookie)).text();
    expect(page).not.toContain("openid-credential-offer://");
  });

  it("refuses a wrong transaction code; the fifth wrong one spends the offer", async () => {
    const { member, achievementId } = await issuedCredential();
    const offer = await openOffer(member.cookie, achievementId);
    const code = await offerCode(offer.link);
    const wrong = offer.txCode === "000000" ? "111111" : "000000";
    const refused = await tokenRequest(code, wrong);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: "invalid_grant" });
    expect((await tokenRequest(code)).status).toBe(400);
    // Still open for the right code.
    expect((await tokenRequest(code, offer.txCode)).status).toBe(200);

    const other = await openOffer(member.cookie, achievementId);
    const otherCode = await offerCode(other.link);
    const otherWrong = other.txCode === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) expect((await tokenRequest(otherCode, otherWrong)).status).toBe(400);
    expect((await tokenRequest(otherCode, other.txCode)).status).toBe(400);
  });

  it("refuses a token used twice, and another credential configuration", async () => {
    const key = await walletKey();
    const { accessToken } = await tokenFor(key);
    const unknown = await credentialRequest(accessToken, await proofJwt(key, await freshNonce()), "SomethingElse");
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: "unknown_credential_configuration" });
    expect((await credentialRequest(accessToken, await proofJwt(key, await freshNonce()))).status).toBe(200);
    const twice = await credentialRequest(accessToken, await proofJwt(key, await freshNonce()));
    expect(twice.status).toBe(401);
    expect(twice.headers.get("WWW-Authenticate")).toMatch(/^Bearer error="invalid_token"/);
    expect(await twice.json()).toMatchObject({ error: "invalid_token" });
  });

  it("refuses an expired token, and a made-up one", async () => {
    const key = await walletKey();
    const { accessToken } = await tokenFor(key);
    await env.DB.prepare("update openid4vci_grants set expires_at = ? where kind = 'token'")
      .bind(Date.now() - 1000)
      .run();
    const expired = await credentialRequest(accessToken, await proofJwt(key, await freshNonce()));
    expect(expired.status).toBe(401);
    expect(await expired.json()).toMatchObject({ error: "invalid_token" });
    const madeUp = await credentialRequest("made-up-token", await proofJwt(key, await freshNonce()));
    expect(madeUp.status).toBe(401);
    expect((await post("/openid4vci/credential", { body: "{}" })).status).toBe(401);
  });

  it("refuses a proof with a stale nonce (used, expired or never ours), and the token stays good", async () => {
    const key = await walletKey();
    const { accessToken } = await tokenFor(key);
    const warnings = vi.spyOn(console, "warn").mockImplementation(() => {});
    const used = await freshNonce();
    const other = await tokenFor(key);
    expect((await credentialRequest(other.accessToken, await proofJwt(key, used))).status).toBe(200);
    const expiredNonce = await freshNonce();
    await env.DB.prepare("update openid4vci_grants set expires_at = ? where id = ?")
      .bind(Date.now() - 1000, expiredNonce)
      .run();
    for (const nonce of [used, expiredNonce, "never-issued-nonce"]) {
      const refused = await credentialRequest(accessToken, await proofJwt(key, nonce));
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ error: "invalid_nonce" });
    }
    expect(warnings.mock.calls.some(([line]) => String(line).includes("openid4vci.refused"))).toBe(true);
    warnings.mockRestore();
    expect((await credentialRequest(accessToken, await proofJwt(key, await freshNonce()))).status).toBe(200);
  });

  it.each([
    ["the wrong aud", { payload: { aud: "https://evil.example" } }],
    ["an old iat", { payload: { iat: Math.floor(Date.now() / 1000) - 3600 } }],
    ["another typ", { header: { typ: "JWT" } }],
    ["a kid that is not a did:key", { header: { kid: "did:web:evil.example#key-1" } }],
  ] as const)("refuses a proof with %s", async (_, change) => {
    const key = await walletKey();
    const { accessToken } = await tokenFor(key);
    const refused = await credentialRequest(accessToken, await proofJwt(key, await freshNonce(), change));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: "invalid_proof" });
    expect((await credentialRequest(accessToken, await proofJwt(key, await freshNonce()))).status).toBe(200);
  });

  it.each(["EdDSA", "ES256"] as const)("refuses a %s proof signed by another key than its kid", async (alg) => {
    const key = await walletKey(alg);
    const { accessToken } = await tokenFor(key);
    const signer = await walletKey(alg);
    const refused = await credentialRequest(accessToken, await proofJwt(key, await freshNonce(), { signer }));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      error: "invalid_proof",
      error_description: expect.stringContaining("signature"),
    });
    // Nor by another key than its jwk.
    const jwkProof = await proofJwt(key, await freshNonce(), {
      signer,
      header: { kid: undefined, jwk: key.publicJwk },
    });
    expect((await credentialRequest(accessToken, jwkProof)).status).toBe(400);
  });

  it("refuses a token for a revoked credential", async () => {
    const key = await walletKey();
    const { accessToken, credentialId } = await tokenFor(key);
    await env.DB.prepare("update credentials set revoked_at = ? where id = ?").bind(Date.now(), credentialId).run();
    const refused = await credentialRequest(accessToken, await proofJwt(key, await freshNonce()));
    expect(refused.status).toBe(401);
  });

  it("serves metadata and takes wallets' requests from any origin (CORS, no cross-site refusal)", async () => {
    for (const path of ["/.well-known/openid-credential-issuer", "/.well-known/oauth-authorization-server"]) {
      const response = await get(path);
      expect(response.status).toBe(200);
      expect(response.headers.get("Access-Control-Allow-Origin")).toBe("*");
      expect(response.headers.get("Content-Type")).toContain("application/json");
    }
    const preflight = await SELF.fetch(`${ORIGIN}/openid4vci/credential`, {
      method: "OPTIONS",
      headers: { Origin: "https://wallet.example", "Access-Control-Request-Method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("Access-Control-Allow-Headers")).toContain("Authorization");
    const nonce = await post("/openid4vci/nonce", {
      body: "",
      headers: { Origin: "https://wallet.example", "Sec-Fetch-Site": "cross-site" },
    });
    expect(nonce.status).toBe(200);
    expect(nonce.headers.get("Cache-Control")).toBe("no-store");
  });

  it("answers the offer, a token and a nonce in at most 2 D1 round trips each", async () => {
    const { member, achievementId } = await issuedCredential();
    const offer = await openOffer(member.cookie, achievementId);
    const uri = new URL(offer.link).searchParams.get("credential_offer_uri")!;
    const offered = await SELF.fetch(uri, { headers: { "cf-connecting-ip": newClientNetwork() } });
    expect(offered.status).toBe(200);
    expect(offered.headers.get("Access-Control-Allow-Origin")).toBe("*");
    const code = ((await offered.json()) as Credential).grants[PRE_AUTHORIZED]["pre-authorized_code"] as string;
    const token = await tokenRequest(code, offer.txCode);
    expect(token.status).toBe(200);
    expect(await token.json()).toMatchObject({ token_type: "Bearer", expires_in: 300 });
    const nonce = await post("/openid4vci/nonce", { body: "" });
    for (const response of [offered, token, nonce])
      expect(Number(response.headers.get("X-D1-Round-Trips"))).toBeLessThanOrEqual(2);
  });

  it("refuses a token request that is not the pre-authorised grant", async () => {
    const refused = await post("/openid4vci/token", {
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "grant_type=authorization_code&code=x",
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: "unsupported_grant_type" });
    expect((await tokenRequest("no-such-code", "123456")).status).toBe(400);
    expect((await SELF.fetch(`${ORIGIN}/openid4vci/offers/${crypto.randomUUID()}`)).status).toBe(404);
  });

  it(`answers a network at most ${RATE_LIMITS["openid4vci-token"].max} token requests a minute`, async () => {
    const network = newClientNetwork();
    const ask = () =>
      post("/openid4vci/token", {
        headers: { "Content-Type": "application/x-www-form-urlencoded", "cf-connecting-ip": network },
        body: `grant_type=${encodeURIComponent(PRE_AUTHORIZED)}&pre-authorized_code=guess&tx_code=000000`,
      });
    for (let i = 0; i < RATE_LIMITS["openid4vci-token"].max; i++) expect((await ask()).status).toBe(400);
    expect((await ask()).status).toBe(429);
  });

  it("deletes expired offers, tokens and nonces in the daily cron", async () => {
    const key = await walletKey();
    await tokenFor(key);
    await freshNonce();
    expect(await countRows("select count(*) as n from openid4vci_grants")).toBe(3);
    await env.DB.prepare("update openid4vci_grants set expires_at = ? where kind != 'offer'")
      .bind(Date.now() - 1000)
      .run();
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "0 3 * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await countRows("select count(*) as n from openid4vci_grants")).toBe(1);
  });
});
