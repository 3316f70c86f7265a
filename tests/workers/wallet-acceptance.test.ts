import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { countRows, exportOf, get, ORIGIN, postForm, unzip } from "./helpers.ts";
import { createAccount } from "./helpers.ts";
import { createOrganisationWithMember, giveAchievement, uniqueName } from "./factories.ts";
import { credentialOf, dccVerify, verified, type Credential } from "./credentials-helpers.ts";
import { postPresentation, vcVerifyDidAuth, walletDidAuth } from "./wallet-helpers.ts";

// 'Accept with my wallet' (issue 31, decision 066): an offered achievement accepted by the
// Learner Credential Wallet's DIDAuth (signed by the wallet's own libraries in Node,
// tests/workers/lcw-wallet.ts), its presentation kept as the proof anyone can check with
// `@digitalcredentials/vc`'s `verify`.

/** An organisation offers its member an achievement (pending). */
async function offered(title = "Signed Award") {
  const { admin, member } = await createOrganisationWithMember({
    adminName: "Ada Admin",
    memberName: "Rita Recipient",
    name: uniqueName("Issuers"),
  });
  const { achievementId } = await giveAchievement(admin.cookie, { userId: member.id, title, type: "training" });
  return { admin, member, achievementId: achievementId! };
}

/** The person presses 'Accept with my wallet'; the deep link their /passport then shows, taken apart. */
async function openAcceptExchange(cookie: string, achievementId: string) {
  const pressed = await postForm("/passport", { intent: "accept-with-wallet", achievementId }, { cookie });
  expect(pressed.status).toBe(302);
  const location = pressed.headers.get("Location")!;
  expect(location).toMatch(/^\/passport\?accept-wallet=[0-9a-f-]{36}$/);
  const html = await (await get(location, cookie)).text();
  const href = /href="(https:\/\/lcw\.app\/request\.html\?[^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, "&");
  expect(href).toBeDefined();
  const link = new URL(href!);
  return {
    id: location.split("=")[1]!,
    location,
    html,
    challenge: link.searchParams.get("challenge")!,
    url: link.searchParams.get("vc_request_url")!,
  };
}

const statusOf = async (achievementId: string) =>
  (await env.DB.prepare("select status from achievements where id = ?").bind(achievementId).first<{ status: string }>())
    ?.status;

const nothingAccepted = async (achievementId: string) => {
  expect(await statusOf(achievementId)).toBe("pending");
  expect(
    await countRows("select count(*) as n from achievement_acceptances where achievement_id = ?", achievementId),
  ).toBe(0);
  expect(await countRows("select count(*) as n from credentials where achievement_id = ?", achievementId)).toBe(0);
};

describe("Accept with my wallet", () => {
  it("accepts the achievement by the wallet's signature, issues to its DID and keeps a proof anyone can check", async () => {
    const { admin, member, achievementId } = await offered();
    const exchange = await openAcceptExchange(member.cookie, achievementId);
    expect(exchange.html).toContain('aria-label="QR code to accept Signed Award with the Learner Credential Wallet"');
    expect(exchange.html).toContain("The code works once, for 15 minutes.");
    expect(exchange.url).toBe(`${ORIGIN}/credentials/exchanges/${exchange.id}`);

    const { did, presentation } = await walletDidAuth({ challenge: exchange.challenge, domain: "localhost" });
    const answer = await postPresentation(exchange.url, presentation, { Origin: "https://lcw.app" });
    expect(answer.status).toBe(200);
    // Issue 31's bound: the exchange and the acceptance read in one batch, spent and written in one.
    expect(Number(answer.headers.get("X-D1-Round-Trips"))).toBeLessThanOrEqual(2);
    expect(answer.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(answer.headers.get("Set-Cookie")).toBeNull();
    const { verifiablePresentation } = (await answer.json()) as { verifiablePresentation: Credential };
    const issued = verifiablePresentation.verifiableCredential[0] as Credential;
    expect(issued.credentialSubject.id).toBe(did);
    expect(await dccVerify(issued)).toMatchObject(verified);

    // Accepted through the accept button's service: the giver is told, and so is the person's open page.
    expect(await statusOf(achievementId)).toBe("accepted");
    const credentialId = await credentialOf(achievementId);
    expect(issued.id).toContain(credentialId);
    expect(
      await countRows(
        "select count(*) as n from notifications where user_id = ? and title = 'Achievement accepted'",
        admin.id,
      ),
    ).toBe(1);
    expect(
      await countRows(
        "select count(*) as n from notifications where user_id = ? and message like '%with your wallet%'",
        member.id,
      ),
    ).toBe(1);
    const page = await (await get(exchange.location, member.cookie)).text();
    expect(page).toContain("with your wallet. Its credential was issued to your wallet’s key");

    // The proof, for anyone: no cookie, any origin, the presentation as the wallet signed it.
    const proof = await SELF.fetch(`${ORIGIN}/credentials/${credentialId}/acceptance`);
    expect(proof.status).toBe(200);
    expect(proof.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(proof.headers.get("Set-Cookie")).toBeNull();
    const stored = (await proof.json()) as Credential;
    expect(stored).toEqual(presentation);
    // Checked with the wallet's own library and its authentication purpose (challenge, domain).
    expect(await vcVerifyDidAuth({ presentation: stored, challenge: exchange.challenge, domain: "localhost" })).toEqual(
      {
        verified: true,
      },
    );
    expect(
      (await vcVerifyDidAuth({ presentation: stored, challenge: "another-challenge", domain: "localhost" })).verified,
    ).toBe(false);
    expect(
      (
        await vcVerifyDidAuth({
          presentation: { ...stored, holder: "did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK" },
          challenge: exchange.challenge,
          domain: "localhost",
        })
      ).verified,
    ).toBe(false);

    // The credential's page says who accepted, and when.
    const human = await (await get(`/credentials/${credentialId}`)).text();
    expect(human).toContain(`Accepted by the holder, signed by <code class="break-all">${did}</code>, on`);
    // Its download is issued to the wallet's DID while the person keeps it (Settings).
    const download = (await (await SELF.fetch(`${ORIGIN}/credentials/${credentialId}/download`)).json()) as Credential;
    expect(download.credentialSubject.id).toBe(did);
    expect(await dccVerify(download)).toMatchObject(verified);

    // Replayed: refused, nothing more.
    const replay = await postPresentation(exchange.url, presentation);
    expect(replay.status).toBe(410);
    expect(await countRows("select count(*) as n from achievement_acceptances")).toBe(1);
  });

  it("puts the signed acceptance and the wallet key in the person's data export", async () => {
    const { member, achievementId } = await offered();
    const exchange = await openAcceptExchange(member.cookie, achievementId);
    const { did, presentation } = await walletDidAuth({ challenge: exchange.challenge, domain: "localhost" });
    expect((await postPresentation(exchange.url, presentation)).status).toBe(200);
    const credentialId = await credentialOf(achievementId);

    const data = (await unzip(await exportOf(member.cookie))).json("data.json");
    expect(data.walletKeys).toEqual([{ holder: did, credentialId, issuedAt: expect.stringMatching(/Z$/) }]);
    expect(data.walletAcceptances).toEqual([
      {
        achievementId,
        credentialId,
        holder: did,
        challenge: exchange.challenge,
        signedAt: expect.stringMatching(/Z$/),
        presentation,
      },
    ]);
    // The exported proof still verifies on its own.
    const exported = data.walletAcceptances[0].presentation;
    expect(
      await vcVerifyDidAuth({ presentation: exported, challenge: exchange.challenge, domain: "localhost" }),
    ).toEqual({ verified: true });
  });

  it("accepts once when two of the person's wallet exchanges answer at the same moment", async () => {
    const { member, achievementId } = await offered();
    const exchanges = [
      await openAcceptExchange(member.cookie, achievementId),
      await openAcceptExchange(member.cookie, achievementId),
    ];
    const signed = await Promise.all(
      exchanges.map((exchange) => walletDidAuth({ challenge: exchange.challenge, domain: "localhost" })),
    );
    const answers = await Promise.all(
      exchanges.map((exchange, i) => postPresentation(exchange.url, signed[i]!.presentation)),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 410]);
    expect(await statusOf(achievementId)).toBe("accepted");
    expect(await countRows("select count(*) as n from credentials where achievement_id = ?", achievementId)).toBe(1);
    const [proof] = (
      await env.DB.prepare("select exchange_id, holder from achievement_acceptances where achievement_id = ?")
        .bind(achievementId)
        .all<{ exchange_id: string; holder: string }>()
    ).results;
    // The proof kept is the winner's, and only its exchange is spent.
    const winner = answers.findIndex((answer) => answer.status === 200);
    expect(proof).toEqual({ exchange_id: exchanges[winner]!.id, holder: signed[winner]!.did });
    expect(
      await countRows(
        "select count(*) as n from wallet_exchanges where used_at is not null and achievement_id = ?",
        achievementId,
      ),
    ).toBe(1);
    expect(
      await countRows("select count(*) as n from credential_holders where holder = ?", signed[1 - winner]!.did),
    ).toBe(0);
  });

  it("refuses the challenge of another achievement, and accepts neither", async () => {
    const { admin, member, achievementId } = await offered("First");
    const { achievementId: second } = await giveAchievement(admin.cookie, { userId: member.id, title: "Second" });
    const otherId = second!;
    const first = await openAcceptExchange(member.cookie, achievementId);
    const other = await openAcceptExchange(member.cookie, otherId);
    const { presentation } = await walletDidAuth({ challenge: first.challenge });
    const refused = await postPresentation(other.url, presentation);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: expect.stringContaining("challenge") });
    await nothingAccepted(achievementId);
    await nothingAccepted(otherId);
  });

  it("refuses an expired exchange, and accepts nothing", async () => {
    const { member, achievementId } = await offered();
    const exchange = await openAcceptExchange(member.cookie, achievementId);
    await env.DB.prepare("update wallet_exchanges set expires_at = ? where id = ?")
      .bind(Date.now() - 1000, exchange.id)
      .run();
    const { presentation } = await walletDidAuth({ challenge: exchange.challenge });
    const answer = await postPresentation(exchange.url, presentation);
    expect(answer.status).toBe(410);
    expect(await answer.json()).toEqual({ error: expect.stringContaining("expired") });
    await nothingAccepted(achievementId);
    expect(await (await get(exchange.location, member.cookie)).text()).toContain("has expired");
  });

  it.each([
    ["an added property", (vp: Credential) => ({ ...vp, id: `urn:uuid:${crypto.randomUUID()}` })],
    [
      "another holder",
      (vp: Credential) => ({ ...vp, holder: "did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK" }),
    ],
  ])("refuses a tampered presentation (%s), and accepts nothing", async (_, tamper) => {
    const { member, achievementId } = await offered();
    const exchange = await openAcceptExchange(member.cookie, achievementId);
    const { presentation } = await walletDidAuth({ challenge: exchange.challenge });
    expect((await postPresentation(exchange.url, tamper(presentation))).status).toBe(401);
    await nothingAccepted(achievementId);
  });

  it("refuses a signature after the person declined without the wallet", async () => {
    const { member, achievementId } = await offered();
    const exchange = await openAcceptExchange(member.cookie, achievementId);
    const declined = await postForm("/passport", { intent: "reject", achievementId }, { cookie: member.cookie });
    expect(declined.status).toBe(302);
    const { presentation } = await walletDidAuth({ challenge: exchange.challenge });
    const answer = await postPresentation(exchange.url, presentation);
    expect(answer.status).toBe(410);
    expect(await statusOf(achievementId)).toBe("rejected");
    expect(await countRows("select count(*) as n from achievement_acceptances")).toBe(0);
  });

  it("opens an exchange only for the person's own pending achievement", async () => {
    const { member, achievementId } = await offered();
    const stranger = await createAccount();
    const refused = await postForm(
      "/passport",
      { intent: "accept-with-wallet", achievementId },
      { cookie: stranger.cookie },
    );
    expect(refused.status).toBe(404);
    expect(await countRows("select count(*) as n from wallet_exchanges")).toBe(0);
    const exchange = await openAcceptExchange(member.cookie, achievementId);
    expect(await (await get(exchange.location, stranger.cookie)).text()).not.toContain("lcw.app");
    // Accepted with the button: no more exchange to accept it with, and no proof to serve.
    await postForm("/passport", { intent: "accept", achievementId }, { cookie: member.cookie });
    const again = await postForm(
      "/passport",
      { intent: "accept-with-wallet", achievementId },
      { cookie: member.cookie },
    );
    expect(again.status).toBe(404);
    const proof = await SELF.fetch(`${ORIGIN}/credentials/${await credentialOf(achievementId)}/acceptance`);
    expect(proof.status).toBe(404);
    expect(proof.headers.get("Access-Control-Allow-Origin")).toBe("*");
  });
});

describe("Wallet keys in Settings", () => {
  it("lists the DIDs the person's credentials were issued to, and forgets one: downloads go back to the e-mail hash", async () => {
    const { member, achievementId } = await offered("Keyed Award");
    const exchange = await openAcceptExchange(member.cookie, achievementId);
    const { did, presentation } = await walletDidAuth({ challenge: exchange.challenge });
    expect((await postPresentation(exchange.url, presentation)).status).toBe(200);
    const credentialId = await credentialOf(achievementId);

    const settings = await (await get("/settings/data", member.cookie)).text();
    expect(settings).toContain("Wallet keys");
    expect(settings).toContain(`aria-label="Credentials issued to ${did}"`);
    expect(settings).toContain(`href="/credentials/${credentialId}"`);
    expect(settings).toContain(`aria-label="Forget this key: ${did}"`);

    // Another person's DID is not theirs to forget: nothing goes.
    const stranger = await createAccount();
    expect((await get("/settings/data", stranger.cookie)).status).toBe(200);
    expect(await (await get("/settings/data", stranger.cookie)).text()).not.toContain(did);
    const refused = await postForm("/settings/data", { intent: "forget-holder-key", did }, { cookie: stranger.cookie });
    expect(refused.status).toBe(404);
    expect(await countRows("select count(*) as n from credential_holders where holder = ?", did)).toBe(1);

    const forgotten = await postForm("/settings/data", { intent: "forget-holder-key", did }, { cookie: member.cookie });
    expect(forgotten.status).toBe(302);
    expect(await countRows("select count(*) as n from credential_holders where holder = ?", did)).toBe(0);
    expect(await (await get("/settings/data", member.cookie)).text()).not.toContain(`Forget this key: ${did}`);
    const download = (await (await SELF.fetch(`${ORIGIN}/credentials/${credentialId}/download`)).json()) as Credential;
    expect(download.credentialSubject.id).toBeUndefined();
    expect(await dccVerify(download)).toMatchObject(verified);
    // The signed acceptance stays: it is what the person said, not where downloads go.
    expect((await SELF.fetch(`${ORIGIN}/credentials/${credentialId}/acceptance`)).status).toBe(200);
  });

  it("remembers the DID of an 'Add to wallet' exchange too", async () => {
    const { member, achievementId } = await offered("Added Award");
    await postForm("/passport", { intent: "accept", achievementId }, { cookie: member.cookie });
    const pressed = await postForm("/passport", { intent: "add-to-wallet", achievementId }, { cookie: member.cookie });
    const html = await (await get(pressed.headers.get("Location")!, member.cookie)).text();
    const link = new URL(/href="(https:\/\/lcw\.app\/request\.html\?[^"]+)"/.exec(html)![1]!.replace(/&amp;/g, "&"));
    const { did, presentation } = await walletDidAuth({ challenge: link.searchParams.get("challenge")! });
    expect((await postPresentation(link.searchParams.get("vc_request_url")!, presentation)).status).toBe(200);
    expect(await (await get("/settings/data", member.cookie)).text()).toContain(`Forget this key: ${did}`);
    // The exchange rows go with the daily clean-up; the key stays.
    await env.DB.prepare("delete from wallet_exchanges").run();
    expect(await (await get("/settings/data", member.cookie)).text()).toContain(`Forget this key: ${did}`);
  });
});
