import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, inject, it } from "vitest";
import worker from "#workers/test-app.ts";
import { expectUnchanged, snapshot, type Snapshot } from "../authorization-matrix/check.ts";
import { seededWorld } from "../authorization-matrix/suite.ts";
import { label, type Row } from "../authorization-matrix/table.ts";
import type { World } from "../authorization-matrix/world.ts";
import { ORIGIN, mp4Bytes, newClientIp } from "../helpers.ts";
import { ACTION_ROWS, FAULT_HEADER, callerOf, expectLoggedFailures, shown } from "./cells.ts";

// The fault table, the other parts (issue 34): R2, the notification Durable Object, mail and the
// cache purge API fail at the binding or the outside call (the same switch, X-Inject-Fault). A
// side effect that fails (a push, a mail, a purge) never undoes the main write and is logged with
// the request's id; a storage failure stores nothing: no object without its row, no row pointing
// at a missing object.

/** Kept: the main write happened and the person was told so. None: told of the failure, nothing stored. */
type Expect = "kept" | "none";
/**
 * `stripe`: the Worker runs with a Stripe key, against the local Stripe stand-in (tests otherwise
 * bill simulated). `files`: the row's form sent with these files instead of its own.
 */
type PartCell = {
  row: string;
  fault: string;
  expect: Expect;
  why: string;
  stripe?: true;
  files?: () => Record<string, File>;
};

const MB = 1024 * 1024;

const PART_CELLS: PartCell[] = [
  {
    row: "routes/_app.dashboard action (give-achievement)",
    fault: "do:notify",
    expect: "kept",
    why: "the live push is a side effect: the notification row is the record",
  },
  {
    row: "routes/_app.passport._index action (add-self-achievement)",
    fault: "purge",
    expect: "kept",
    why: "a failed purge is logged; the edge copy ages out",
  },
  {
    row: "routes/_app.dashboard_.achievements action (revoke)",
    fault: "purge",
    expect: "kept",
    why: "a failed purge is logged; the revocation stands",
  },
  { row: "routes/auth action (signup)", fault: "mail", expect: "kept", why: "the link can be sent again" },
  // Written after the change they announce: lost and logged, never a "nothing was saved" (issue 43).
  {
    row: "routes/_app.passport.$userId.endorse.$achievementId action (endorse)",
    fault: "d1:insert:notifications",
    expect: "kept",
    why: "the owner's notification is a side effect: the endorsement stands",
  },
  {
    row: "routes/_app.dashboard_.achievements action (revoke)",
    fault: "d1:insert:notifications",
    expect: "kept",
    why: "the holder's notification is a side effect: the revocation stands",
  },
  {
    row: "routes/profile.media action (upload-avatar)",
    fault: "r2:put",
    expect: "none",
    why: "no object, so no row may point at one",
  },
  {
    row: "routes/_app.passport._index action (add-self-achievement)",
    fault: "r2:multipart",
    expect: "none",
    why: "a video over one 5 MiB part goes up as a multipart upload: none is begun, so no entry and no object",
    files: () => ({
      media: new File([mp4Bytes({ seconds: 30, mediaBytes: 12 * MB })], "clip.mp4", { type: "video/mp4" }),
    }),
  },
  {
    row: "routes/_app.dashboard action (give-achievement (with a file))",
    fault: "r2:put",
    expect: "none",
    why: "the achievement is not given without its picture",
  },
  {
    row: "routes/_app.passport._index action (delete-import)",
    fault: "r2:delete",
    expect: "kept",
    why: "the import is deleted; its file stays named by a released row until the cron deletes it",
  },
  {
    row: "routes/_app.passport._index action (accept)",
    fault: "sign",
    expect: "kept",
    why: "the acceptance stands, its credential left due for the frequent cron; the failure is logged",
  },
  {
    row: "routes/_app.passport.$userId.endorse.$achievementId action (endorse)",
    fault: "sign",
    expect: "none",
    why: "an endorsement is its signed credential: none is kept unsigned",
  },
  {
    row: "routes/_app.dashboard action (subscribe)",
    fault: "stripe",
    expect: "none",
    why: "no checkout session, so nothing to pay and nothing written",
    stripe: true,
  },
  {
    row: "routes/_app.dashboard action (manage-subscription)",
    fault: "stripe",
    expect: "none",
    why: "no portal session: the admin is told and may try again",
    stripe: true,
  },
  {
    row: "routes/_app.dashboard action (cancel-subscription)",
    fault: "stripe",
    expect: "none",
    why: "Stripe did not cancel, so the subscription stays active here too",
    stripe: true,
  },
];

/** The whole request through the Worker (with the purge API configured), waiting for what it left behind. */
async function sendThroughWorker(world: World, row: Row, cell: PartCell) {
  const { fault } = cell;
  const caller = callerOf(row);
  const call = row.call(world, caller);
  if (cell.files && call.body instanceof FormData)
    for (const [name, file] of Object.entries(cell.files())) call.body.set(name, file);
  const cookie = caller === "anon" ? undefined : world.users[caller].cookie;
  const headers: Record<string, string> = {
    Origin: ORIGIN,
    Host: new URL(ORIGIN).host,
    "Sec-Fetch-Site": "same-origin",
    "cf-connecting-ip": newClientIp(),
    [FAULT_HEADER]: fault,
    ...(cookie ? { Cookie: cookie } : {}),
    ...call.headers,
  };
  let body: BodyInit | undefined;
  if (call.body instanceof FormData) body = call.body;
  else if (call.body && "json" in call.body) {
    body = JSON.stringify(call.body.json);
    headers["Content-Type"] = "application/json";
  } else if (call.body) {
    body = new URLSearchParams(call.body as Record<string, string>);
    headers["Content-Type"] = "application/x-www-form-urlencoded";
  }
  const bindings = {
    ...env,
    CLOUDFLARE_ZONE_ID: "0123456789abcdef0123456789abcdef",
    CLOUDFLARE_API_TOKEN: "token-fault-matrix",
    CLOUDFLARE_API_BASE: inject("cloudflareApiBase"),
    ...(cell.stripe ? { STRIPE_SECRET_KEY: "sk_test_fault_matrix", STRIPE_API_BASE: inject("stripeApiBase") } : {}),
  } as Env;
  const context = createExecutionContext();
  const response = await worker.fetch(
    new Request(`${ORIGIN}${call.path}`, { method: call.method, headers, body, redirect: "manual" }),
    bindings,
    context,
  );
  await waitOnExecutionContext(context);
  return response;
}

/** Every line the Worker logged during the test (console.log, warn and error), parsed. */
let lines: Record<string, unknown>[] = [];
const restore: (() => void)[] = [];
function captureLogs() {
  for (const level of ["log", "warn", "error"] as const) {
    const original = console[level];
    console[level] = (...args: unknown[]) => {
      try {
        lines.push(JSON.parse(String(args[0])) as Record<string, unknown>);
      } catch {
        // Not one of the Worker's structured lines.
      }
      original.apply(console, args);
    };
    restore.push(() => (console[level] = original));
  }
}
afterEach(() => {
  for (const undo of restore.splice(0)) undo();
  lines = [];
});

/** R2's objects added since `before` each named by a row, and each R2 key a row names still there. */
async function expectNoOrphans(world: World, before: Snapshot) {
  const after = await snapshot(world);
  const keys = (objects: string[]) => objects.map((object) => object.split(" ")[0]!);
  const rows = Object.values(after.rows).join("\n");
  const added = keys(after.objects).filter((key) => !keys(before.objects).includes(key));
  // An object a row named before, whose row is gone, is gone too.
  const rowsBefore = Object.values(before.rows).join("\n");
  const left = keys(after.objects).filter((key) => rowsBefore.includes(key) && !rows.includes(key));
  expect(left, "objects whose row was deleted").toEqual([]);
  expect(
    added.filter((key) => !rows.includes(key)),
    "objects without a row",
  ).toEqual([]);
  const present = new Set(keys(after.objects));
  // The bucket's top folders (those in use, and those the app writes).
  const folders = new Set(["avatars", "achievement-images", "achievement-videos", "imports"]);
  for (const key of present) folders.add(key.split("/")[0]!);
  const named = [...rows.matchAll(new RegExp(`(?<![\\w-])(?:${[...folders].join("|")})/[\\w./-]+`, "g"))].map(
    ([key]) => key,
  );
  expect(
    named.filter((key) => !present.has(key) && !present.has(key.replace(/\.\w+$/, ""))),
    `rows pointing at a missing object: ${named.filter((key) => !present.has(key)).join(" ")}`,
  ).toEqual([]);
}

describe("a part other than D1 fails", () => {
  const seeded = seededWorld();
  it("names only rows of the authorization matrix", () => {
    const labels = ACTION_ROWS.map(label);
    expect(PART_CELLS.map((cell) => cell.row).filter((name) => !labels.includes(name))).toEqual([]);
  });
  for (const cell of PART_CELLS) {
    it(`${cell.row}, ${cell.fault}: ${cell.expect} (${cell.why})`, async () => {
      const { world, before } = seeded;
      const row = ACTION_ROWS.find((candidate) => label(candidate) === cell.row)!;
      expectLoggedFailures();
      captureLogs();
      const response = await sendThroughWorker(world, row, cell);
      const requestId = response.headers.get("X-Request-Id");
      const status = response.status;
      const { message, generic } = await shown(response);
      expect(generic, "the generic error page").toBe(false);
      // The fault happened, logged with the request's id.
      expect(lines.filter((line) => line.message === "fault injected").map((line) => line.requestId)).toContain(
        requestId,
      );
      // Every error logged names its request.
      const unnamed = lines.filter((line) => line.level === "error" && !line.requestId);
      expect(unnamed, JSON.stringify(unnamed).slice(0, 1000)).toEqual([]);
      if (cell.expect === "none") {
        expect(message, `status ${status}: no message shown`).toBeTruthy();
        await expectUnchanged(world, before);
      } else {
        expect(row.ok, `status ${status}, shown ${message}`).toContain(status);
        const after = await snapshot(world);
        expect(Object.keys(before.rows).filter((table) => before.rows[table] !== after.rows[table])).not.toEqual([]);
        await expectNoOrphans(world, before);
      }
    });
  }
});
