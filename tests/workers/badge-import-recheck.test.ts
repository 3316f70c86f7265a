import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "#workers/test-app.ts";
import { recheckImports } from "#app/services/imports/imported-credentials.server.ts";
import { readEnv } from "#app/utils/env.server.ts";
import { createDb } from "#db/client.ts";
import { createAccount, get } from "./helpers.ts";
import { addOnPage, checkOnPage, htmlDecode, outsideCredential, publish } from "./import-helpers.ts";

// Issue 32, "the daily cron re-checks imported credentials (in batches, bounded work per run)": a
// credential its issuer revoked after the import leaves the public passport and shows to its
// owner as 'Revoked by the issuer on {date}'; a run takes a bounded batch and the rest wait.

async function runCron(at: number) {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: at, cron: "0 3 * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

const DAY = 24 * 60 * 60 * 1000;

async function importFor(person: { email: string; cookie: string }) {
  const made = await outsideCredential({
    email: person.email,
    status: { url: `https://status.example/lists/${crypto.randomUUID()}` },
  });
  const checked = await checkOnPage(person.cookie, { source: JSON.stringify(made.credential) });
  expect((await addOnPage(person.cookie, checked.nonce!)).status).toBe(302);
  return made;
}

const rowOf = (userId: string) =>
  env.DB.prepare(
    "select status, revoked_at as revokedAt, checked_at as checkedAt from imported_credentials where user_id = ?",
  )
    .bind(userId)
    .first<{ status: string; revokedAt: number | null; checkedAt: number }>();

describe("the daily re-check of imported credentials", () => {
  it("finds a revocation: the entry leaves the public passport and its owner sees when", async () => {
    const person = await createAccount();
    const made = await importFor(person);
    expect(await (await get(`/passport/${person.id}`)).text()).toContain("Open Source Contributor");

    // The issuer revokes it; the next day's run reads the list again.
    await publish(made.revokedLater);
    const at = Date.parse("2026-12-03T03:00:00Z");
    await runCron(at);
    expect(await rowOf(person.id)).toEqual({ status: "revoked", revokedAt: at, checkedAt: at });
    expect(await (await get(`/passport/${person.id}`)).text()).not.toContain("Open Source Contributor");
    const own = htmlDecode(await (await get("/passport", person.cookie)).text());
    expect(own).toContain("Revoked by the issuer on 3 December 2026");
    expect(own).not.toContain('aria-label="Verified credential"');

    // A later run keeps the first date.
    await runCron(at + DAY);
    expect((await rowOf(person.id))?.revokedAt).toBe(at);
  });

  it("checks a bounded batch per run, the longest unchecked first, and the rest on a later run", async () => {
    const people = [await createAccount(), await createAccount(), await createAccount()];
    for (const person of people) await importFor(person);
    // Checked long ago, in this order.
    for (const [index, person] of people.entries()) {
      await env.DB.prepare("update imported_credentials set checked_at = ? where user_id = ?")
        .bind(index + 1, person.id)
        .run();
    }
    const context = {
      db: createDb(env.DB),
      env: readEnv({ ...env }),
      cloudflare: { env, ctx: createExecutionContext() },
    };
    const now = new Date("2026-12-04T03:00:00Z");
    expect(await recheckImports(context, now, 2)).toEqual({ checked: 2, changed: 0, revoked: 0 });
    expect((await rowOf(people[0]!.id))?.checkedAt).toBe(now.getTime());
    expect((await rowOf(people[1]!.id))?.checkedAt).toBe(now.getTime());
    expect((await rowOf(people[2]!.id))?.checkedAt).toBe(3);
    expect(await recheckImports(context, new Date(now.getTime() + 60_000), 2)).toEqual({
      checked: 1,
      changed: 0,
      revoked: 0,
    });
    expect((await rowOf(people[2]!.id))?.status).toBe("verified");
  });
});
