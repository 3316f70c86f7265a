// Issue 32: "Verifying an imported credential whose issuer resolves locally takes at most 50 ms of
// Worker CPU." Another issuer (scripts/badges/outside-issuer.mjs: the Digital Credentials
// Consortium's libraries, a fresh did:key, eddsa-rdfc-2022) signs an Open Badges 3.0 credential
// for the demo member Sam's address; Sam posts it to /passport/import's 'Check' as the page's form
// posts it without JavaScript (the whole page rendered with each check), one request at a time.
// The did:key resolves from the DID itself: nothing is read from another host. Worker CPU is read
// as for /verify (scripts/bench/verify.mjs), interleaved with the same floor.
import { outsideIssuer } from "../badges/outside-issuer.mjs";
import { BENCH_CREDENTIAL } from "./seed.mjs";
import { cookieHeader, signIn } from "./sign-in.mjs";
import { cpuOf, sendAgain, summarise, workerProcess } from "./verify.mjs";

export const IMPORT_CPU_BUDGET_MS = 50;
const WARM_UP = 3;
/** The page allows one person 20 checks a minute: the warm-up and the samples stay within them. */
export const MAX_IMPORT_SAMPLES = 20 - WARM_UP;

export async function measureImport({ origin, port, serverPid, samples }) {
  const pid = workerProcess(serverPid, port);
  const count = Math.min(samples, MAX_IMPORT_SAMPLES);
  const cookies = cookieHeader(await signIn(origin, BENCH_CREDENTIAL.recipientEmail));
  const issuer = await outsideIssuer();
  const { credential } = await issuer.credential({ email: BENCH_CREDENTIAL.recipientEmail });
  const json = JSON.stringify(credential);
  const check = async () => {
    const form = new FormData();
    form.set("source", json);
    form.set("intent", "check-import");
    const headers = { Origin: origin, Cookie: cookies, "Accept-Encoding": "identity" };
    const response = await sendAgain(() => fetch(`${origin}/passport/import`, { method: "POST", headers, body: form }));
    return { status: response.status, html: await response.text() };
  };
  const floor = async () => {
    const response = await sendAgain(() =>
      fetch(`${origin}/api/auth/ok`, { headers: { "Accept-Encoding": "identity" } }),
    );
    return { status: response.status, html: await response.text() };
  };

  const first = await check();
  const verified = first.status === 200 && first.html.includes("Every check passed.");
  for (let i = 1; i < WARM_UP; i++) await check();
  const checkSamples = [];
  const floorSamples = [];
  for (let i = 0; i < count; i++) {
    checkSamples.push(await cpuOf(pid, check));
    floorSamples.push(await cpuOf(pid, floor));
  }
  return {
    samples: count,
    credentialBytes: Buffer.byteLength(json),
    verified,
    check: summarise(checkSamples),
    floor: summarise(floorSamples),
  };
}
