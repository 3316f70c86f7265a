// Issue 32: "Verifying an imported credential whose issuer resolves locally takes at most 50 ms of
// Worker CPU." Another issuer (scripts/badges/outside-issuer.mjs: the Digital Credentials
// Consortium's libraries, a fresh did:key, eddsa-rdfc-2022) signs an Open Badges 3.0 credential
// for each of three demo people's addresses; each posts theirs to /passport/import's 'Check' as
// the page's form posts it without JavaScript (the whole page rendered with each check), in turn,
// one request at a time.
// The did:key resolves from the DID itself: nothing is read from another host. Worker CPU is read
// as for /verify (scripts/bench/verify.mjs), interleaved with the same floor.
import { outsideIssuer } from "../badges/outside-issuer.mjs";
import { BENCH_CREDENTIAL } from "./seed.mjs";
import { cookieHeader, DEMO_ACCOUNTS, signIn } from "./sign-in.mjs";
import { cpuOf, sendAgain, summarise, workerProcess } from "./verify.mjs";

export const IMPORT_CPU_BUDGET_MS = 50;
const WARM_UP = 3;
/**
 * The page allows one person 20 checks a minute, so the samples are spread over three demo people
 * (the warm-up is the first one's): up to 17 each, a p95 that is not simply the maximum.
 */
const PEOPLE = [BENCH_CREDENTIAL.recipientEmail, DEMO_ACCOUNTS.member, DEMO_ACCOUNTS.admin];
export const MAX_IMPORT_SAMPLES = PEOPLE.length * (20 - WARM_UP);

export async function measureImport({ origin, port, serverPid, samples }) {
  const pid = workerProcess(serverPid, port);
  const count = Math.min(samples, MAX_IMPORT_SAMPLES);
  const issuer = await outsideIssuer();
  const checkers = [];
  for (const email of PEOPLE) {
    const cookies = cookieHeader(await signIn(origin, email));
    const { credential } = await issuer.credential({ email });
    checkers.push(checkerFor(origin, cookies, JSON.stringify(credential)));
  }
  const floor = async () => {
    const response = await sendAgain(() =>
      fetch(`${origin}/api/auth/ok`, { headers: { "Accept-Encoding": "identity" } }),
    );
    return { status: response.status, html: await response.text() };
  };

  const first = await checkers[0].check();
  const verified = first.status === 200 && first.html.includes("Every check passed.");
  for (let i = 1; i < WARM_UP; i++) await checkers[0].check();
  const checkSamples = [];
  const floorSamples = [];
  for (let i = 0; i < count; i++) {
    checkSamples.push(await cpuOf(pid, checkers[i % checkers.length].check));
    floorSamples.push(await cpuOf(pid, floor));
  }
  const json = checkers[0].json;
  return {
    samples: count,
    credentialBytes: Buffer.byteLength(json),
    verified,
    check: summarise(checkSamples),
    floor: summarise(floorSamples),
  };
}

/** 'Check' posted by one signed-in person, with a credential issued to their address. */
function checkerFor(origin, cookies, json) {
  const check = async () => {
    const form = new FormData();
    form.set("source", json);
    form.set("intent", "check-import");
    const headers = { Origin: origin, Cookie: cookies, "Accept-Encoding": "identity" };
    const response = await sendAgain(() => fetch(`${origin}/passport/import`, { method: "POST", headers, body: form }));
    return { status: response.status, html: await response.text() };
  };
  return { check, json };
}
