// Issue 31: "Each exchange answer ... costs at most 2 D1 round trips and, signing included, about
// 50 ms of Worker CPU at most." The bench's demo member Sam holds the bench credential
// (issueBenchCredential, verify.mjs); for each sample Sam opens 'Add to wallet' through the
// passport's form, the Learner Credential Wallet's own libraries sign a DIDAuth over the page's
// challenge (scripts/wallet/lcw-didauth.mjs), and that presentation is posted to the exchange, as
// the wallet posts it. Only the post is measured: its Worker CPU (read from Linux, as for /verify)
// and its D1 round trips (X-D1-Round-Trips).
import { lcwDidAuth } from "../wallet/lcw-didauth.mjs";
import { BENCH_CREDENTIAL } from "./seed.mjs";
import { cookieHeader, signIn } from "./sign-in.mjs";
import { cpuOf, sendAgain, summarise, workerProcess } from "./verify.mjs";

export const WALLET_CPU_BUDGET_MS = 50;
export const WALLET_ROUND_TRIPS_BUDGET = 2;
const WARM_UP = 3;

/** Worker CPU and D1 round trips of `samples` wallet answers to fresh exchanges (after a warm-up). */
export async function measureWalletExchange({ origin, port, serverPid, samples }) {
  const pid = workerProcess(serverPid, port);
  const cookies = cookieHeader(await signIn(origin, BENCH_CREDENTIAL.recipientEmail));
  const didAuth = await lcwDidAuth();
  let request = 0;

  /** 'Add to wallet' on the passport: the exchange's URL and challenge, as its deep link names them. */
  const openExchange = async () => {
    const opened = await fetch(`${origin}/passport?index`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: origin, Cookie: cookies, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "add-to-wallet", achievementId: BENCH_CREDENTIAL.achievementId }),
    });
    const location = opened.headers.get("Location");
    if (opened.status !== 302 || !location) throw new Error(`'Add to wallet' answered ${opened.status}.`);
    const page = await (await fetch(new URL(location, origin), { headers: { Cookie: cookies } })).text();
    const link = /https:\/\/lcw\.app\/request\.html\?[^"<\s]+/.exec(page.replaceAll("&amp;", "&"))?.[0];
    if (!link) throw new Error("The passport page showed no wallet link.");
    const query = new URL(link).searchParams;
    return { url: query.get("vc_request_url"), challenge: query.get("challenge"), domain: query.get("issuer") };
  };

  const roundTrips = [];
  const answer = async () => {
    const exchange = await openExchange();
    const { presentation } = await didAuth({ challenge: exchange.challenge, domain: exchange.domain });
    // The exchange allows 30 answers a minute per client network: each post is a network of its own.
    const headers = {
      "Content-Type": "application/json",
      "Accept-Encoding": "identity",
      "cf-connecting-ip": `2001:db8:3a11:${(++request).toString(16)}::1`,
    };
    const post = () =>
      sendAgain(() => fetch(exchange.url, { method: "POST", headers, body: JSON.stringify(presentation) }));
    return { post, roundTripsOf: (response) => Number(response.headers.get("X-D1-Round-Trips") ?? NaN) };
  };

  const measured = [];
  for (let i = 0; i < WARM_UP + samples; i++) {
    const { post, roundTripsOf } = await answer();
    let response;
    const sample = await cpuOf(pid, async () => {
      response = await post();
      await response.arrayBuffer();
      return response;
    });
    if (i >= WARM_UP) {
      measured.push(sample);
      roundTrips.push(roundTripsOf(response));
    }
  }
  return { samples, ...summarise(measured), roundTripsMax: Math.max(...roundTrips), roundTrips };
}
