import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "#workers/test-app.ts";
import { issuedCredential } from "./credentials-helpers.ts";
import { countRows, createAccount, get, postForm } from "./helpers.ts";
import { addOnPage, checkOnPage, htmlDecode, outsideCredential } from "./import-helpers.ts";
import { postPresentation, walletDidAuth } from "./wallet-helpers.ts";

// A credential issued to a wallet DID is imported only after that wallet signs a DIDAuth made for
// this very import (issue 43, decision 099): 'Prove with my wallet' on /passport/import opens a
// one-time exchange; no other DID the app has seen counts.

const notYours = (did: string) => `This credential was issued to ${did}, which is not one of your wallet DIDs.`;
const newSeed = () => crypto.randomUUID().replaceAll("-", "").repeat(2);

/** A wallet (the Learner Credential Wallet's libraries, one key) and a credential issued to its DID. */
async function walletAndCredential() {
  const seed = newSeed();
  const { did } = await walletDidAuth({ challenge: "which DID", seed });
  const made = await outsideCredential({ subjectDid: did });
  return { seed, did, source: JSON.stringify(made.credential) };
}

/** 'Prove with my wallet' for the check answered with `nonce`: the proof page and its deep link. */
async function openProof(cookie: string, nonce: string) {
  const pressed = await postForm("/passport/import", { intent: "prove-wallet", nonce }, { cookie });
  expect(pressed.status).toBe(302);
  const location = pressed.headers.get("Location")!;
  expect(location).toMatch(/^\/passport\/import\?prove=[0-9a-f-]{36}$/);
  const html = htmlDecode(await (await get(location, cookie)).text());
  const link = new URL(/href="(https:\/\/lcw\.app\/request\.html\?[^"]+)"/.exec(html)![1]!);
  return {
    location,
    html,
    challenge: link.searchParams.get("challenge")!,
    url: link.searchParams.get("vc_request_url")!,
  };
}

const page = async (location: string, cookie: string) => htmlDecode(await (await get(location, cookie)).text());
const importsOf = (userId: string) =>
  countRows("select count(*) as n from imported_credentials where user_id = ?", userId);

describe("Prove with my wallet", () => {
  it("imports a credential issued to a wallet DID only once that wallet signed for this import", async () => {
    const person = await createAccount();
    const wallet = await walletAndCredential();
    const checked = await checkOnPage(person.cookie, { source: wallet.source });
    expect(checked.html).toContain(notYours(wallet.did));
    expect(checked.html).toContain("Prove with my wallet");
    expect(checked.html).not.toContain("Add to passport");
    const nonce = checked.nonce!;

    const proof = await openProof(person.cookie, nonce);
    expect(proof.html).toContain('aria-label="QR code to prove your wallet with the Learner Credential Wallet"');
    // Until the wallet signs, 'Add' finds it refused, as the check did.
    expect((await addOnPage(person.cookie, nonce)).status).toBe(400);
    expect(await importsOf(person.id)).toBe(0);

    const { presentation } = await walletDidAuth({
      challenge: proof.challenge,
      domain: "localhost",
      seed: wallet.seed,
    });
    const answered = await postPresentation(proof.url, presentation);
    expect(answered.status).toBe(200);
    expect(await answered.json()).toEqual({});
    // Used once; the proof is kept a day for 'Add', past the 15 minutes of its code.
    expect((await postPresentation(proof.url, presentation)).status).toBe(410);
    const kept = await env.DB.prepare("select expires_at as expiresAt from wallet_exchanges where challenge = ?")
      .bind(proof.challenge)
      .first<{ expiresAt: number }>();
    expect(kept!.expiresAt).toBeGreaterThan(Date.now() + 23 * 60 * 60 * 1000);

    const proved = await page(proof.location, person.cookie);
    expect(proved).toContain("Every check passed.");
    expect(proved).toContain(`Issued to your wallet DID ${wallet.did}.`);
    expect(proved).toContain("Add to passport");
    expect((await addOnPage(person.cookie, nonce)).status).toBe(302);
    const row = await env.DB.prepare(
      "select status, holder_did as holderDid from imported_credentials where user_id = ?",
    )
      .bind(person.id)
      .first();
    expect(row).toEqual({ status: "verified", holderDid: wallet.did });

    // The daily re-check matches the DID the import proved, and keeps it verified.
    const ctx = createExecutionContext();
    const at = Date.now() + 2 * 24 * 60 * 60 * 1000;
    await worker.scheduled(createScheduledController({ scheduledTime: at, cron: "0 3 * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(
      await env.DB.prepare("select status, checked_at as checkedAt from imported_credentials where user_id = ?")
        .bind(person.id)
        .first(),
    ).toEqual({ status: "verified", checkedAt: at });
  });

  it("takes no other DID: one our credentials were issued to, nor one proved for an earlier check", async () => {
    const { member: person, credentialId } = await issuedCredential();
    const wallet = await walletAndCredential();
    // As 'Add to wallet' remembers it: a DID anyone holding the person's link could have given.
    await env.DB.prepare(
      "insert into credential_holders (id, user_id, credential_id, holder, issued_at) values (?, ?, ?, ?, ?)",
    )
      .bind(crypto.randomUUID(), person.id, credentialId, wallet.did, Date.now())
      .run();
    const held = await checkOnPage(person.cookie, { source: wallet.source });
    expect(held.html).toContain(notYours(wallet.did));
    const first = await checkOnPage(person.cookie, { source: wallet.source });
    const proof = await openProof(person.cookie, first.nonce!);
    const { presentation } = await walletDidAuth({ challenge: proof.challenge, seed: wallet.seed });
    expect((await postPresentation(proof.url, presentation)).status).toBe(200);
    // Checked again: a new check, which that proof was not made for.
    const again = await checkOnPage(person.cookie, { source: wallet.source });
    expect(again.html).toContain(notYours(wallet.did));
    expect((await addOnPage(person.cookie, again.nonce!)).status).toBe(400);
    // And the proof page of the replaced check says so.
    expect(await page(proof.location, person.cookie)).toContain("This check is no longer current");
    expect(await importsOf(person.id)).toBe(0);
  });

  it("refuses another person's proof page, another wallet's signature and an expired code", async () => {
    const person = await createAccount();
    const stranger = await createAccount();
    const wallet = await walletAndCredential();
    const checked = await checkOnPage(person.cookie, { source: wallet.source });
    const proof = await openProof(person.cookie, checked.nonce!);
    expect((await get(proof.location, stranger.cookie)).status).toBe(404);
    // Nor may a stranger open a proof for someone else's pending import.
    const foreign = await postForm("/passport/import", { intent: "prove-wallet", nonce: checked.nonce! }, stranger);
    expect(foreign.status).toBe(400);

    // Another wallet signs: it proves its own DID, not the one the credential names.
    const other = await walletDidAuth({ challenge: proof.challenge, seed: newSeed() });
    expect((await postPresentation(proof.url, other.presentation)).status).toBe(200);
    const after = await page(proof.location, person.cookie);
    expect(after).toContain(notYours(wallet.did));
    expect(after).not.toContain("Add to passport");

    // A new code, left to expire.
    const second = await openProof(person.cookie, checked.nonce!);
    await env.DB.prepare("update wallet_exchanges set expires_at = ? where challenge = ?")
      .bind(Date.now() - 1000, second.challenge)
      .run();
    expect(await page(second.location, person.cookie)).toContain("This code has expired");
    const late = await walletDidAuth({ challenge: second.challenge, seed: wallet.seed });
    expect((await postPresentation(second.url, late.presentation)).status).toBe(410);
    expect(await importsOf(person.id)).toBe(0);
  });
});
