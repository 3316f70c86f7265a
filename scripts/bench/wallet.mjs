// Issue 31: "Each exchange answer, token, nonce and credential request costs at most 2 D1 round
// trips and, signing included, about 50 ms of Worker CPU at most." The bench's demo member Sam
// holds the bench credential (issueBenchCredential, verify.mjs); for each sample Sam opens 'Add to
// wallet' through the passport's form, and then:
// - the Learner Credential Wallet's own libraries sign a DIDAuth over the page's challenge
//   (scripts/wallet/lcw-didauth.mjs), posted to the exchange as the wallet posts it;
// - an OpenID4VCI wallet takes the page's credential offer: token (with the page's transaction
//   code), nonce, and the credential with a `jwt` proof by a new Ed25519 did:key.
// - and Sam accepts one of his offers with 'Accept with my wallet': the wallet's DIDAuth over that
//   exchange's challenge accepts it and gets its credential (decision 066).
// Each of those requests is measured alone: its Worker CPU (read from Linux, as for /verify) and
// its D1 round trips (X-D1-Round-Trips).
import { createPrivateKey, generateKeyPairSync, sign } from "node:crypto";
import { encode as encodeBase58 } from "base58-universal";
import { lcwWallet } from "../wallet/lcw-didauth.mjs";
import { BENCH_CREDENTIAL, BENCH_WALLET_OFFERS, benchOfferId } from "./seed.mjs";
import { cookieHeader, signIn } from "./sign-in.mjs";
import { cpuOf, sendAgain, summarise, workerProcess } from "./verify.mjs";

export const WALLET_CPU_BUDGET_MS = 50;
export const WALLET_ROUND_TRIPS_BUDGET = 2;
const WARM_UP = 3;

/**
 * Worker CPU and D1 round trips of `samples` of each request a wallet makes of a fresh 'Add to
 * wallet' (after a warm-up): the exchange's answer, and OpenID4VCI's token, nonce and credential.
 */
export async function measureWalletRequests({ origin, port, serverPid, samples }) {
  const pid = workerProcess(serverPid, port);
  const cookies = cookieHeader(await signIn(origin, BENCH_CREDENTIAL.recipientEmail));
  const { didAuth } = await lcwWallet();
  let request = 0;

  /** Presses a wallet button of the passport (`intent`) and reads the page it leads to. */
  const pressOnPassport = async (intent, achievementId) => {
    const opened = await fetch(`${origin}/passport?index`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: origin, Cookie: cookies, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent, achievementId }),
    });
    const location = opened.headers.get("Location");
    if (opened.status !== 302 || !location) throw new Error(`'${intent}' answered ${opened.status}.`);
    return (await (await fetch(new URL(location, origin), { headers: { Cookie: cookies } })).text())
      .replaceAll("&amp;", "&")
      .replace(/<!--.*?-->/g, "");
  };
  /** The exchange's URL and challenge as the page's Learner Credential Wallet deep link names them. */
  const exchangeOf = (page) => {
    const link = /https:\/\/lcw\.app\/request\.html\?[^"<\s]+/.exec(page)?.[0];
    if (!link) throw new Error("The passport page showed no wallet link.");
    const query = new URL(link).searchParams;
    return { url: query.get("vc_request_url"), challenge: query.get("challenge"), domain: query.get("issuer") };
  };

  /** 'Add to wallet' on the passport: its exchange, and the OpenID4VCI offer's URL and transaction code. */
  const openExchange = async () => {
    const page = await pressOnPassport("add-to-wallet", BENCH_CREDENTIAL.achievementId);
    const offer = /openid-credential-offer:\/\/\?[^"<\s]+/.exec(page)?.[0];
    const txCode = /enter <strong[^>]*>(\d+)<\/strong>/.exec(page)?.[1];
    if (!offer || !txCode) throw new Error("The passport page showed no credential offer or code.");
    return { ...exchangeOf(page), offerUri: new URL(offer).searchParams.get("credential_offer_uri"), txCode };
  };

  // Each request from a client network of its own: the endpoints count per network (an IPv6 /64).
  const client = () => ({
    "Accept-Encoding": "identity",
    "cf-connecting-ip": `2001:db8:3a11:${(++request).toString(16)}::1`,
  });
  const measure = async (send) => {
    let response;
    const sample = await cpuOf(pid, async () => {
      response = await sendAgain(send);
      await response.clone().arrayBuffer();
      return response;
    });
    return { sample: { ...sample, roundTrips: Number(response.headers.get("X-D1-Round-Trips") ?? NaN) }, response };
  };

  /** The wallet's DIDAuth over an exchange's challenge, posted as the wallet posts it, measured. */
  const answerExchange = async ({ url, challenge, domain }) => {
    const { presentation } = await didAuth({ challenge, domain });
    return measure(() =>
      fetch(url, {
        method: "POST",
        headers: { ...client(), "Content-Type": "application/json" },
        body: JSON.stringify(presentation),
      }),
    );
  };

  if (WARM_UP + samples > BENCH_WALLET_OFFERS) throw new Error(`At most ${BENCH_WALLET_OFFERS} samples.`);
  const taken = { exchange: [], accept: [], token: [], nonce: [], credential: [] };
  for (let i = 0; i < WARM_UP + samples; i++) {
    const opened = await openExchange();
    const exchange = await answerExchange(opened);
    const accept = await answerExchange(exchangeOf(await pressOnPassport("accept-with-wallet", benchOfferId(i))));
    const offer = await (await fetch(opened.offerUri)).json();
    const code = offer.grants["urn:ietf:params:oauth:grant-type:pre-authorized_code"]["pre-authorized_code"];
    const token = await measure(() =>
      fetch(`${origin}/openid4vci/token`, {
        method: "POST",
        headers: { ...client(), "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "urn:ietf:params:oauth:grant-type:pre-authorized_code",
          "pre-authorized_code": code,
          tx_code: opened.txCode,
        }),
      }),
    );
    const { access_token: accessToken } = await token.response.json();
    const nonce = await measure(() => fetch(`${origin}/openid4vci/nonce`, { method: "POST", headers: client() }));
    const { c_nonce: cNonce } = await nonce.response.json();
    const jwt = proofJwt({ audience: offer.credential_issuer, nonce: cNonce });
    const credential = await measure(() =>
      fetch(`${origin}/openid4vci/credential`, {
        method: "POST",
        headers: { ...client(), "Content-Type": "application/json", Authorization: `Bearer ${accessToken}` },
        body: JSON.stringify({
          credential_configuration_id: offer.credential_configuration_ids[0],
          proof: { proof_type: "jwt", jwt },
        }),
      }),
    );
    if (i < WARM_UP) continue;
    taken.exchange.push(exchange.sample);
    taken.accept.push(accept.sample);
    taken.token.push(token.sample);
    taken.nonce.push(nonce.sample);
    taken.credential.push(credential.sample);
  }
  return Object.fromEntries(
    Object.entries(taken).map(([request, measured]) => [
      request,
      {
        samples,
        ...summarise(measured),
        roundTripsMax: Math.max(...measured.map((sample) => sample.roundTrips)),
      },
    ]),
  );
}

/** An OpenID4VCI `jwt` proof (1.0, appendix F.1) by a new Ed25519 key, named by its did:key. */
function proofJwt({ audience, nonce }) {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const raw = publicKey.export({ format: "jwk" }).x;
  const multibase = `z${encodeBase58(Uint8Array.from([0xed, 0x01, ...Buffer.from(raw, "base64url")]))}`;
  const part = (value) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const header = { typ: "openid4vci-proof+jwt", alg: "EdDSA", kid: `did:key:${multibase}#${multibase}` };
  const input = `${part(header)}.${part({ aud: audience, nonce, iat: Math.floor(Date.now() / 1000) })}`;
  const signature = sign(
    null,
    Buffer.from(input),
    createPrivateKey(privateKey.export({ format: "pem", type: "pkcs8" })),
  );
  return `${input}.${signature.toString("base64url")}`;
}
