import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, inject, it, vi } from "vitest";
import worker from "#workers/test-app.ts";
import { createAccount, newClientIp, ORIGIN, postForm } from "./helpers.ts";
import { credentialJson, issuedCredential } from "./credentials-helpers.ts";

// A passport change purges the passport's URLs in every data centre through Cloudflare's cache
// purge API when the zone is configured (decision 034); the API here is a local fake.

const ZONE_ID = "0123456789abcdef0123456789abcdef";
const TOKEN = "cf-purge-token-test";
const cloudflareApiBase = inject("cloudflareApiBase");

type PurgeRequest = { method: string; path: string; body: string; authorization: string | null };

/** A whole request through the Worker, with the purge API configured (or not). */
async function postThroughWorker(path: string, fields: Record<string, string>, cookie: string, zoneId?: string) {
  const bindings = {
    ...env,
    ...(zoneId ? { CLOUDFLARE_ZONE_ID: zoneId, CLOUDFLARE_API_TOKEN: TOKEN } : {}),
    CLOUDFLARE_API_BASE: cloudflareApiBase,
  } as Env;
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    new Request(`${ORIGIN}${path}`, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: ORIGIN,
        Host: new URL(ORIGIN).host,
        "cf-connecting-ip": newClientIp(),
        Cookie: cookie,
      },
      body: new URLSearchParams(fields),
      redirect: "manual",
    }),
    bindings,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return response;
}

const addAchievement = (title: string) => ({
  intent: "add-self-achievement",
  formId: "self",
  title,
  company: "Acme",
  date: new Date().toISOString().slice(0, 10),
  type: "award",
});

/** The purge requests the fake received that name this person's passport. */
async function purgesOf(userId: string) {
  const requests = (await (await fetch(`${cloudflareApiBase}/__requests`)).json()) as PurgeRequest[];
  return requests.filter((request) => request.body.includes(userId));
}

const achievementCount = async (userId: string) =>
  (await env.DB.prepare("select count(*) as n from achievements where user_id = ?")
    .bind(userId)
    .first<{ n: number }>())!.n;

afterEach(() => vi.restoreAllMocks());

describe("global cache purge", () => {
  it("purges every URL of the passport, its pages and card, in one authorised call when it changes", async () => {
    const person = await createAccount({ name: "Petra Purge" });
    const response = await postThroughWorker("/passport", addAchievement("Purged Everywhere"), person.cookie, ZONE_ID);
    expect(response.status).toBe(302);

    const purges = await purgesOf(person.id);
    expect(purges).toHaveLength(1);
    const [purge] = purges;
    expect(purge!.method).toBe("POST");
    expect(purge!.path).toBe(`/client/v4/zones/${ZONE_ID}/purge_cache`);
    expect(purge!.authorization).toBe(`Bearer ${TOKEN}`);
    const { files } = JSON.parse(purge!.body) as { files: string[] };
    const passport = `${ORIGIN}/passport/${person.id}`;
    // Each page as a visitor who has made the cookie choice sees it, and with the banner.
    expect(files).toEqual(
      expect.arrayContaining([
        passport,
        `${passport}?all=1`,
        `${passport}/card.png`,
        `${passport}?cookie-banner=1`,
        `${passport}?all=1&cookie-banner=1`,
        `${passport}/print`,
        // The change marker: a data centre without it starts a new generation of cursor pages.
        `${passport}/changed`,
      ]),
    );
    expect(files.every((file) => file.startsWith(`${passport}`))).toBe(true);
  });

  it("purges a revoked credential's status list everywhere, at its one cached URL", async () => {
    const { admin, credentialId } = await issuedCredential({ title: "Revoked Everywhere" });
    const listUrl = (await credentialJson(credentialId)).credentialStatus!.statusListCredential as string;
    const revoked = await postThroughWorker(
      "/dashboard/achievements",
      { intent: "revoke", credentialId },
      admin.cookie,
      ZONE_ID,
    );
    expect(revoked.status).toBe(302);
    const listId = listUrl.split("/").at(-1)!;
    const purges = (await (await fetch(`${cloudflareApiBase}/__requests`)).json()) as PurgeRequest[];
    const files = purges
      .filter((request) => request.body.includes(listId))
      .flatMap((request) => (JSON.parse(request.body) as { files: string[] }).files);
    expect(files).toEqual([listUrl]);
  });

  it("purges again when an achievement is hidden", async () => {
    const person = await createAccount({ name: "Hana Hidden" });
    await postThroughWorker("/passport", addAchievement("Soon Hidden"), person.cookie, ZONE_ID);
    const { id } = (await env.DB.prepare("select id from achievements where user_id = ?")
      .bind(person.id)
      .first<{ id: string }>())!;
    const hidden = await postThroughWorker(
      "/passport",
      { intent: "set-visibility", achievementId: id, visible: "false" },
      person.cookie,
      ZONE_ID,
    );
    expect(hidden.status).toBe(302);
    expect(await purgesOf(person.id)).toHaveLength(2);
  });

  it("sends nothing without a zone and a token: only this data centre's copy is deleted", async () => {
    const person = await createAccount({ name: "Lola Local" });
    expect((await postThroughWorker("/passport", addAchievement("Local Only"), person.cookie)).status).toBe(302);
    expect((await postForm("/passport", addAchievement("Local Too"), { cookie: person.cookie })).status).toBe(302);
    expect(await achievementCount(person.id)).toBe(2);
    expect(await purgesOf(person.id)).toEqual([]);
  });

  it("a failing purge API does not fail the change: it is saved, confirmed and the failure logged", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const person = await createAccount({ name: "Fay Failing" });
    const response = await postThroughWorker(
      "/passport",
      addAchievement("Saved Anyway"),
      person.cookie,
      inject("cloudflareFailingZoneId"),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/passport");
    expect(await achievementCount(person.id)).toBe(1);
    expect(await purgesOf(person.id)).toHaveLength(1);
    const logged = errors.mock.calls.map(([line]) => JSON.parse(String(line)) as Record<string, unknown>);
    expect(logged).toContainEqual(expect.objectContaining({ message: "cache purge failed", status: 403 }));
  });
});
