import { createExecutionContext, createScheduledController, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import worker from "#workers/test-app.ts";
import { RATE_LIMITS } from "#app/utils/rate-limit.server.ts";
import { countRows, get, newClientNetwork, ORIGIN, postForm } from "./helpers.ts";
import { createAccount } from "./helpers.ts";
import { credentialJson, dccVerify, issuedCredential, verified, type Credential } from "./credentials-helpers.ts";
import { postPresentation, walletDidAuth } from "./wallet-helpers.ts";

// 'Add to wallet' (issue 31, decision 064), driven as the Learner Credential Wallet drives it:
// the deep link read from the person's /passport, a DIDAuth presentation signed by the wallet's own
// libraries (tests/workers/lcw-wallet.ts, in Node), posted to the link's vc_request_url; the
// credential that comes back checked by the DCC's verifier-core (tests/workers/dcc-verifier.ts).

/** The person presses 'Add to wallet'; the deep link their /passport then shows, taken apart. */
async function openExchange(cookie: string, achievementId: string) {
  const pressed = await postForm("/passport", { intent: "add-to-wallet", achievementId }, { cookie });
  expect(pressed.status).toBe(302);
  const location = pressed.headers.get("Location")!;
  expect(location).toMatch(/^\/passport\?wallet=[0-9a-f-]{36}$/);
  const page = await get(location, cookie);
  expect(page.status).toBe(200);
  const html = await page.text();
  const href = /href="(https:\/\/lcw\.app\/request\.html\?[^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, "&");
  expect(href).toBeDefined();
  const link = new URL(href!);
  return {
    id: location.split("=")[1]!,
    html,
    link,
    challenge: link.searchParams.get("challenge")!,
    url: link.searchParams.get("vc_request_url")!,
  };
}

describe("Add to wallet: the Learner Credential Wallet's exchange", () => {
  it("hands the wallet its credential, reissued to its DID, verified by verifier-core", async () => {
    const { member, achievementId, credentialId } = await issuedCredential({ title: "Wallet Award" });
    const exchange = await openExchange(member.cookie, achievementId);
    // The deep link the wallet opens (digitalcredentials/docs, request/credential_request.md).
    expect(exchange.link.origin + exchange.link.pathname).toBe("https://lcw.app/request.html");
    expect(Object.fromEntries(exchange.link.searchParams)).toEqual({
      issuer: "localhost",
      auth_type: "bearer",
      challenge: exchange.challenge,
      vc_request_url: `${ORIGIN}/credentials/exchanges/${exchange.id}`,
    });
    // At least 128 random bits.
    expect(exchange.challenge).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    expect(exchange.html).toContain('aria-label="QR code to add Wallet Award to the Learner Credential Wallet"');
    expect(exchange.html).toContain("Open in the Learner Credential Wallet");
    expect(exchange.html).toContain("The code works once, for 15 minutes.");

    const { did, presentation } = await walletDidAuth({ challenge: exchange.challenge });
    expect(did).toMatch(/^did:key:z6Mk/);
    // A browser-based wallet sends its own origin: allowed, and no cookie is set.
    const answer = await postPresentation(exchange.url, presentation, { Origin: "https://lcw.app" });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(answer.headers.get("Set-Cookie")).toBeNull();
    expect(Number(answer.headers.get("X-D1-Round-Trips"))).toBeLessThanOrEqual(2);
    const body = (await answer.json()) as Credential;
    const { verifiablePresentation } = body;
    expect(verifiablePresentation["@context"]).toEqual(["https://www.w3.org/ns/credentials/v2"]);
    // The wallet's deep-link request reads the body itself as a presentation (extractCredentialsFrom).
    expect(body.type).toEqual(["VerifiablePresentation"]);
    expect(body.verifiableCredential).toEqual(verifiablePresentation.verifiableCredential);
    expect(verifiablePresentation.type).toEqual(["VerifiablePresentation"]);
    expect(verifiablePresentation.verifiableCredential).toHaveLength(1);

    const issued = verifiablePresentation.verifiableCredential[0] as Credential;
    const stored = await credentialJson(credentialId);
    expect(issued.credentialSubject.id).toBe(did);
    // Same credential, achievement and status list entry; signed now.
    expect(issued.id).toBe(stored.id);
    expect(issued.credentialSubject.achievement).toEqual(stored.credentialSubject.achievement);
    expect(issued.credentialStatus).toEqual(stored.credentialStatus);
    expect(Date.now() - Date.parse(issued.proof[0].created)).toBeLessThan(60_000);
    expect(await dccVerify(issued)).toMatchObject(verified);
    // The download is unchanged: the wallet's copy is the wallet's.
    expect((await credentialJson(credentialId)).credentialSubject.id).toBeUndefined();

    // Replayed: refused, nothing issued.
    const replay = await postPresentation(exchange.url, presentation);
    expect(replay.status).toBe(410);
    expect(await replay.json()).toEqual({ error: expect.stringContaining("already used") });
    // The page now says so, and offers a new code.
    const after = await (await get(`/passport?wallet=${exchange.id}`, member.cookie)).text();
    expect(after).toContain("was already used by a wallet");
    expect(after).toContain("Get a new code");
  });

  it("takes a did:web wallet, its DID document read from the web (the /dev/web.json stand-in here)", async () => {
    const { member, achievementId } = await issuedCredential({ title: "Web Wallet Award" });
    const webHost = `wallet-${crypto.randomUUID().slice(0, 8)}.example`;
    const exchange = await openExchange(member.cookie, achievementId);
    const { did, presentation, didDocument } = await walletDidAuth({ challenge: exchange.challenge, webHost });
    expect(did).toBe(`did:web:${webHost}`);

    // Not published yet: refused, the exchange still open.
    const unpublished = await postPresentation(exchange.url, presentation);
    expect(unpublished.status).toBe(401);
    expect(await unpublished.json()).toEqual({ error: expect.stringContaining("The holder's DID document") });

    const published = await SELF.fetch(`${ORIGIN}/dev/web.json`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: ORIGIN },
      body: JSON.stringify({ url: `https://${webHost}/.well-known/did.json`, body: JSON.stringify(didDocument) }),
    });
    expect(published.status).toBe(201);
    const answer = await postPresentation(exchange.url, presentation);
    expect(answer.status).toBe(200);
    const issued = ((await answer.json()) as Credential).verifiablePresentation.verifiableCredential[0] as Credential;
    expect(issued.credentialSubject.id).toBe(did);
    expect(await dccVerify(issued)).toMatchObject(verified);
  });

  it("refuses a did:web wallet whose document does not list the signing key for authentication", async () => {
    const { member, achievementId } = await issuedCredential({ title: "Unlisted Web Key" });
    const webHost = `wallet-${crypto.randomUUID().slice(0, 8)}.example`;
    const exchange = await openExchange(member.cookie, achievementId);
    const { presentation, didDocument } = await walletDidAuth({ challenge: exchange.challenge, webHost });
    const withoutAuthentication = { ...didDocument, authentication: [] };
    await SELF.fetch(`${ORIGIN}/dev/web.json`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: ORIGIN },
      body: JSON.stringify({
        url: `https://${webHost}/.well-known/did.json`,
        body: JSON.stringify(withoutAuthentication),
      }),
    });
    const answer = await postPresentation(exchange.url, presentation);
    expect(answer.status).toBe(401);
    expect(await answer.json()).toEqual({ error: "The proof's key is not one the holder's DID lists." });
  });

  it.each([
    { version: 1, suite: "Ed25519Signature2020" },
    { version: 2, suite: "eddsa-rdfc-2022" },
    { version: 1, suite: "eddsa-rdfc-2022" },
  ] as const)("takes a VC $version presentation signed with $suite, our host as domain", async (variant) => {
    const { member, achievementId } = await issuedCredential();
    const exchange = await openExchange(member.cookie, achievementId);
    const { did, presentation } = await walletDidAuth({
      challenge: exchange.challenge,
      domain: "localhost",
      ...variant,
    });
    const answer = await postPresentation(exchange.url, presentation);
    expect(answer.status).toBe(200);
    const { verifiablePresentation } = (await answer.json()) as { verifiablePresentation: Credential };
    const issued = verifiablePresentation.verifiableCredential[0] as Credential;
    expect(issued.credentialSubject.id).toBe(did);
    expect(await dccVerify(issued)).toMatchObject(verified);
  });

  it("takes the presentation wrapped as a VC-API exchange posts it", async () => {
    const { member, achievementId } = await issuedCredential();
    const exchange = await openExchange(member.cookie, achievementId);
    const { did, presentation } = await walletDidAuth({ challenge: exchange.challenge });
    const answer = await postPresentation(exchange.url, { verifiablePresentation: presentation });
    expect(answer.status).toBe(200);
    const { verifiablePresentation } = (await answer.json()) as { verifiablePresentation: Credential };
    expect(verifiablePresentation.verifiableCredential[0].credentialSubject.id).toBe(did);
  });

  it("refuses an expired exchange, and issues nothing", async () => {
    const { member, achievementId } = await issuedCredential();
    const exchange = await openExchange(member.cookie, achievementId);
    await env.DB.prepare("update wallet_exchanges set expires_at = ? where id = ?")
      .bind(Date.now() - 1000, exchange.id)
      .run();
    const { presentation } = await walletDidAuth({ challenge: exchange.challenge });
    const answer = await postPresentation(exchange.url, presentation);
    expect(answer.status).toBe(410);
    expect(await answer.json()).toEqual({ error: expect.stringContaining("expired") });
    expect(
      await countRows("select count(*) as n from wallet_exchanges where used_at is not null or holder is not null"),
    ).toBe(0);
    const page = await (await get(`/passport?wallet=${exchange.id}`, member.cookie)).text();
    expect(page).toContain("has expired");
  });

  it.each([
    ["a signature by a key the DID does not list", { signer: "unlisted" }, /key is not one the holder's DID lists/],
    ["a wrong challenge", { challenge: "another-challenge-0123456789" }, /challenge/],
    ["another domain", { domain: "evil.example" }, /another domain/],
  ] as const)("refuses %s (401), and the exchange stays open for the right answer", async (_, ask, error) => {
    const { member, achievementId } = await issuedCredential();
    const exchange = await openExchange(member.cookie, achievementId);
    const { presentation } = await walletDidAuth({ challenge: exchange.challenge, ...ask });
    const warnings = vi.spyOn(console, "warn").mockImplementation(() => {});
    const refused = await postPresentation(exchange.url, presentation);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: string }).error).toMatch(error);
    // Logged as a security event, with the exchange but never its challenge.
    const logged = warnings.mock.calls.map(([line]) => String(line)).filter((line) => line.includes("wallet.refused"));
    expect(logged).toHaveLength(1);
    expect(JSON.parse(logged[0]!)).toMatchObject({ event: "wallet.refused", exchangeId: exchange.id });
    expect(logged[0]).not.toContain(exchange.challenge);
    warnings.mockRestore();
    expect(await countRows("select count(*) as n from wallet_exchanges where used_at is not null")).toBe(0);

    const right = await walletDidAuth({ challenge: exchange.challenge });
    expect((await postPresentation(exchange.url, right.presentation)).status).toBe(200);
  });

  it.each([
    ["an added property", (vp: Credential) => ({ ...vp, id: `urn:uuid:${crypto.randomUUID()}` })],
    [
      "another holder",
      (vp: Credential) => ({ ...vp, holder: "did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK" }),
    ],
    ["a changed proof date", (vp: Credential) => ({ ...vp, proof: { ...vp.proof, created: "2020-01-01T00:00:00Z" } })],
  ])("refuses a tampered presentation: %s", async (_, tamper) => {
    const { member, achievementId } = await issuedCredential();
    const exchange = await openExchange(member.cookie, achievementId);
    const { presentation } = await walletDidAuth({ challenge: exchange.challenge });
    const refused = await postPresentation(exchange.url, tamper(presentation));
    expect(refused.status).toBe(401);
    expect(await countRows("select count(*) as n from wallet_exchanges where used_at is not null")).toBe(0);
  });

  it("refuses what is not a presentation, and an unknown exchange", async () => {
    const { member, achievementId } = await issuedCredential();
    const exchange = await openExchange(member.cookie, achievementId);
    expect((await SELF.fetch(exchange.url, { method: "POST", body: "not json" })).status).toBe(400);
    expect((await postPresentation(exchange.url, { hello: "world" })).status).toBe(401);
    const big = await postPresentation(exchange.url, { padding: "x".repeat(70_000) });
    expect(big.status).toBe(413);
    const unknown = await postPresentation(`${ORIGIN}/credentials/exchanges/${crypto.randomUUID()}`, {});
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: "No such exchange." });
  });

  it("lets a wallet on another origin ask (CORS preflight)", async () => {
    const response = await SELF.fetch(`${ORIGIN}/credentials/exchanges/${crypto.randomUUID()}`, {
      method: "OPTIONS",
      headers: { Origin: "https://lcw.app", "Access-Control-Request-Method": "POST" },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(response.headers.get("Access-Control-Allow-Methods")).toContain("POST");
    expect(response.headers.get("Access-Control-Allow-Headers")).toContain("Content-Type");
  });

  it(`answers a network at most ${RATE_LIMITS["wallet-exchange"].max} times a minute`, async () => {
    const network = newClientNetwork();
    const url = `${ORIGIN}/credentials/exchanges/${crypto.randomUUID()}`;
    for (let i = 0; i < RATE_LIMITS["wallet-exchange"].max; i++)
      expect((await postPresentation(url, {}, { "cf-connecting-ip": network })).status).toBe(404);
    expect((await postPresentation(url, {}, { "cf-connecting-ip": network })).status).toBe(429);
    expect((await postPresentation(url, {}, { "cf-connecting-ip": newClientNetwork() })).status).toBe(404);
  });

  it("opens an exchange only for the person's own credential", async () => {
    const { member, achievementId } = await issuedCredential();
    const stranger = await createAccount();
    const refused = await postForm(
      "/passport",
      { intent: "add-to-wallet", achievementId },
      { cookie: stranger.cookie },
    );
    expect(refused.status).toBe(404);
    expect(await countRows("select count(*) as n from wallet_exchanges")).toBe(0);
    // And another person's exchange is not shown to them.
    const exchange = await openExchange(member.cookie, achievementId);
    const page = await (await get(`/passport?wallet=${exchange.id}`, stranger.cookie)).text();
    expect(page).not.toContain("lcw.app");
  });

  it("opens no exchange for a revoked credential, and a revocation closes an open one", async () => {
    const { admin, member, achievementId, credentialId } = await issuedCredential();
    const exchange = await openExchange(member.cookie, achievementId);
    const revoked = await postForm(
      "/dashboard/achievements",
      { intent: "revoke", credentialId },
      { cookie: admin.cookie },
    );
    expect(revoked.status).toBe(302);
    const { presentation } = await walletDidAuth({ challenge: exchange.challenge });
    expect((await postPresentation(exchange.url, presentation)).status).toBe(410);
    const again = await postForm("/passport", { intent: "add-to-wallet", achievementId }, { cookie: member.cookie });
    expect(again.status).toBe(404);
  });

  it("is deleted by the daily cron once expired, used or not", async () => {
    const { member, achievementId } = await issuedCredential();
    const expired = await openExchange(member.cookie, achievementId);
    const fresh = await openExchange(member.cookie, achievementId);
    await env.DB.prepare("update wallet_exchanges set expires_at = ? where id = ?")
      .bind(Date.now() - 1000, expired.id)
      .run();
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "0 3 * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await countRows("select count(*) as n from wallet_exchanges")).toBe(1);
    expect(await countRows("select count(*) as n from wallet_exchanges where id = ?", fresh.id)).toBe(1);
  });

  it("stores the holder's copy when the exchange is spent, and serves it to every download without signing again", async () => {
    const { member, achievementId, credentialId } = await issuedCredential({ title: "Stored Copy Award" });
    const exchange = await openExchange(member.cookie, achievementId);
    const { did, presentation } = await walletDidAuth({ challenge: exchange.challenge });
    const answer = await postPresentation(exchange.url, presentation);
    expect(answer.status).toBe(200);
    const issued = ((await answer.json()) as Credential).verifiablePresentation.verifiableCredential[0] as Credential;
    const row = await env.DB.prepare(
      "select id, credential_json as json from credential_holders where credential_id = ?",
    )
      .bind(credentialId)
      .first<{ id: string; json: string | null }>();
    expect(JSON.parse(row!.json!)).toEqual(issued);

    const download = async () => {
      const response = await SELF.fetch(`${ORIGIN}/credentials/${credentialId}/download`, {
        headers: { "cf-connecting-ip": newClientNetwork() },
      });
      expect(response.status).toBe(200);
      return (await response.json()) as Credential;
    };
    // Later downloads are the wallet's copy, proof and all: nothing is signed for them.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await download()).toEqual(issued);
    expect((await download()).credentialSubject.id).toBe(did);

    // A row from before stored copies: its first download signs one, and it is kept.
    await env.DB.prepare("update credential_holders set credential_json = null where id = ?").bind(row!.id).run();
    const signedOnce = await download();
    expect(signedOnce.credentialSubject.id).toBe(did);
    expect(await dccVerify(signedOnce)).toMatchObject(verified);
    const kept = await env.DB.prepare("select credential_json as json from credential_holders where id = ?")
      .bind(row!.id)
      .first<{ json: string }>();
    expect(JSON.parse(kept!.json)).toEqual(signedOnce);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await download()).toEqual(signedOnce);
  });

  it(`serves a network at most ${RATE_LIMITS["credential-download"].max} downloads a minute`, async () => {
    const { credentialId } = await issuedCredential({ title: "Throttled Download" });
    const network = newClientNetwork();
    const url = `${ORIGIN}/credentials/${credentialId}/download`;
    const fetchFrom = (ip: string) => SELF.fetch(url, { headers: { "cf-connecting-ip": ip } });
    for (let i = 0; i < RATE_LIMITS["credential-download"].max; i++) {
      const response = await fetchFrom(network);
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
    const refused = await fetchFrom(network);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect((await fetchFrom(newClientNetwork())).status).toBe(200);
  });
});
