// Issue 32: "a LinkedIn export or résumé of 500 items is read, reviewed and added with the
// additions written in one batch (at most 2 D1 round trips for the add) within a second on this
// machine". For each sample the demo member Alex uploads a LinkedIn export ZIP of 500 positions
// (new titles each time, so every add writes 500 rows) to 'Import history', reads the review list
// the page answers, and posts it back as its form does. Each of the two requests is measured
// alone: its Worker CPU (read from Linux, as for /verify) and its D1 round trips
// (X-D1-Round-Trips), the session guard's counted apart as tests/workers/round-trips.test.ts does
// (a post the route refuses right after its guard).
import { strToU8, zipSync } from "fflate";
import { DEMO_ACCOUNTS, cookieHeader, signIn } from "./sign-in.mjs";
import { cpuOf, summarise, workerProcess } from "./verify.mjs";

export const HISTORY_ITEMS = 500;
/** Read, review and add, the two requests' Worker CPU together (p95 each), on this machine. */
export const HISTORY_CPU_BUDGET_MS = 1000;
/** The add's own round trips beyond the session guard. */
export const HISTORY_ADD_ROUND_TRIPS_BUDGET = 2;
const WARM_UP = 2;
const PATH = "/passport/import-history";

/** LinkedIn's export as it is mailed: Positions.csv (notes above the header) with `count` rows. */
function linkedInExport(run, count) {
  const rows = [
    "Notes:",
    '"Your positions, as you entered them."',
    "",
    "Company Name,Title,Description,Location,Started On,Finished On",
  ];
  for (let index = 0; index < count; index++) {
    const year = 1990 + (index % 30);
    rows.push(
      `Company ${index % 40},"Role ${index} (run ${run})","Led a team of ${index % 9} people.\nShipped the product twice.",Lisbon,Mar ${year},${year + 1}`,
    );
  }
  return zipSync({ "Basic_LinkedInDataExport/Positions.csv": strToU8(rows.join("\r\n")) });
}

/** The review list's fields as its form posts them, read from the page (every entry ticked). */
function reviewForm(html) {
  const fields = new URLSearchParams();
  const plain = html.replaceAll("&quot;", '"').replaceAll("&amp;", "&");
  const inputs = [...plain.matchAll(/<input[^>]*name="(entries\[\d+\]\.\w+)"[^>]*>/g)];
  for (const [tag, name] of inputs) {
    const value = /value="([^"]*)"/.exec(tag)?.[1] ?? "";
    if (name.endsWith(".selected")) {
      if (/\schecked=""/.test(tag)) fields.append(name, "on");
    } else fields.append(name, value);
  }
  for (const [, name, value] of plain.matchAll(/<textarea[^>]*name="(entries\[\d+\]\.description)"[^>]*>([^<]*)</g))
    fields.append(name, value);
  for (const [, name, options] of plain.matchAll(/<select[^>]*name="(entries\[\d+\]\.type)"[^>]*>(.*?)<\/select>/g))
    fields.append(name, /value="(\w+)" selected/.exec(options)?.[1] ?? "");
  fields.append("intent", "add-history");
  return fields;
}

/** Worker CPU and D1 round trips of reading a 500-entry export and of adding its review list. */
export async function measureHistoryImport({ origin, port, serverPid, samples }) {
  const pid = workerProcess(serverPid, port);
  const cookie = cookieHeader(await signIn(origin, DEMO_ACCOUNTS.member));
  const headers = { Origin: origin, Cookie: cookie, "Accept-Encoding": "identity" };
  const roundTrips = (response) => Number(response.headers.get("X-D1-Round-Trips") ?? NaN);

  /** The session guard's round trips alone, just before a measured request (a session refresh may add one). */
  const guardRoundTrips = async () => {
    const guard = await fetch(origin + PATH, {
      method: "POST",
      redirect: "manual",
      headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "no-such-intent" }),
    });
    await guard.arrayBuffer();
    return roundTrips(guard);
  };

  const taken = { read: [], add: [] };
  let entries = 0;
  for (let i = 0; i < WARM_UP + samples; i++) {
    const body = new FormData();
    const run = `${Date.now().toString(36)}-${i}`;
    body.append("file", new Blob([linkedInExport(run, HISTORY_ITEMS)], { type: "application/zip" }), "export.zip");
    body.append("intent", "read-history");
    const readGuard = await guardRoundTrips();
    let read;
    const readSample = await cpuOf(pid, async () => {
      read = await fetch(origin + PATH, { method: "POST", redirect: "manual", headers, body });
      return read;
    });
    const form = reviewForm(await read.text());
    entries = [...form.keys()].filter((name) => name.endsWith(".key")).length;
    const addGuard = await guardRoundTrips();
    let added;
    const addSample = await cpuOf(pid, async () => {
      added = await fetch(origin + PATH, {
        method: "POST",
        redirect: "manual",
        headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded" },
        body: form,
      });
      await added.arrayBuffer();
      return added;
    });
    if (i < WARM_UP) continue;
    taken.read.push({ ...readSample, roundTrips: roundTrips(read) - readGuard, guard: readGuard });
    // A successful add redirects to the passport with its toast.
    taken.add.push({
      ...addSample,
      status: added.status === 302 ? 200 : added.status,
      roundTrips: roundTrips(added) - addGuard,
      guard: addGuard,
    });
  }
  return {
    items: HISTORY_ITEMS,
    entriesReviewed: entries,
    guardRoundTrips: Math.max(...[...taken.read, ...taken.add].map((sample) => sample.guard)),
    ...Object.fromEntries(
      Object.entries(taken).map(([request, measured]) => [
        request,
        {
          samples,
          ...summarise(measured),
          roundTripsMax: Math.max(...measured.map((sample) => sample.roundTrips)),
        },
      ]),
    ),
  };
}
