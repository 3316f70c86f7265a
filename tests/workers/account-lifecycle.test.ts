import { createExecutionContext, env, SELF } from "cloudflare:test";
import { describe, expect, inject, it, vi } from "vitest";
import { archiveUser, purgeExpiredAccounts, purgeUser } from "#app/services/account-purge.server.ts";
import { EXAMPLE_SESSION_SECRET, readEnv } from "#app/utils/env.server.ts";
import { createDb } from "#db/client.ts";
import worker from "#workers/test-app.ts";
import { getLoadContext } from "#workers/load-context.ts";
import { countRows, createAccount, get, ORIGIN, PASSWORD, postForm, productionBindings, toastFrom } from "./helpers.ts";
import { createOrganisationWithMember } from "./factories.ts";
import { expectConsoleError } from "./console-errors.ts";

const DAY = 24 * 60 * 60 * 1000;

async function organisationWithMember() {
  const { admin, member, organizationId, membershipId } = await createOrganisationWithMember({
    adminName: "Ada Admin",
  });
  return { admin, member, organizationId, membership: membershipId };
}

/** A context as a request to the Worker builds it, with some settings changed. */
function contextWith(overrides: Record<string, string>) {
  return getLoadContext({
    request: new Request(ORIGIN),
    context: { cloudflare: { env: { ...env, ...overrides } as Env, ctx: createExecutionContext() } },
  });
}

describe("archive", () => {
  it("refuses to leave an organisation without an admin, and says what to do", async () => {
    const { admin } = await organisationWithMember();
    const response = await postForm("/settings/danger", { intent: "archive" }, { cookie: admin.cookie });
    expect(response.status).toBe(302);
    const toast = toastFrom(response)!;
    expect(toast.title).toBe("Error archiving account");
    expect(toast.description).toMatch(/only admin of .*Make another member an admin, or delete the organisation/);
    expect(await countRows("select count(*) as n from profiles where id = ? and deleted_at is null", admin.id)).toBe(1);
    expect(await countRows("select count(*) as n from organization_roles where user_id = ?", admin.id)).toBe(1);
  });

  it("first cancels every Stripe subscription paid for the member (against the local fake Stripe API)", async () => {
    const { member, membership } = await organisationWithMember();
    await env.DB.prepare(
      "update organization_members set subscription_status = 'active', stripe_subscription_id = 'sub_archived_member' where id = ?",
    )
      .bind(membership)
      .run();
    const stripeApiBase = inject("stripeApiBase");
    const context = contextWith({ STRIPE_SECRET_KEY: "sk_test_fake", STRIPE_API_BASE: stripeApiBase });
    await archiveUser(context, member.id, null);

    const requests = (await (await fetch(`${stripeApiBase}/__requests`)).json()) as { method: string; path: string }[];
    expect(requests).toContainEqual(
      expect.objectContaining({ method: "DELETE", path: "/v1/subscriptions/sub_archived_member" }),
    );
    expect(await countRows("select count(*) as n from organization_members where user_id = ?", member.id)).toBe(0);
    expect(
      await countRows("select count(*) as n from profiles where id = ? and deleted_at is not null", member.id),
    ).toBe(1);
  });

  // Archiving, or signing out: either ends the person's open notification sockets.
  it.each<{ name: string; path: string; fields: Record<string, string> }>([
    {
      name: "closes the person's open notification sockets, as signing out does",
      path: "/settings/danger",
      fields: { intent: "archive" },
    },
    { name: "signing out closes the sockets too", path: "/auth/signout", fields: {} },
  ])("$name", async ({ path, fields }) => {
    const { cookie } = await createAccount();
    const response = await SELF.fetch("http://localhost/api/notifications/socket", {
      headers: { Upgrade: "websocket", Origin: "http://localhost", Cookie: cookie },
    });
    const socket = response.webSocket!;
    socket.accept();
    const closed = new Promise<number>((resolve) => socket.addEventListener("close", (event) => resolve(event.code)));
    await postForm(path, fields, { cookie });
    expect(await closed).toBe(4001);
  });
});

describe("purge", () => {
  it("keeps the achievements the person gave to others; the giver shows as a deleted account", async () => {
    const { admin, member, organizationId } = await organisationWithMember();
    const given = crypto.randomUUID();
    const received = crypto.randomUUID();
    await env.DB.batch([
      env.DB.prepare(
        "insert into achievements (id, user_id, organization_id, created_by, title, date, type, status, is_visible, image_url, created_at) values (?, ?, ?, ?, 'Given', '2024-01-01', 'award', 'accepted', 1, ?, 0)",
      ).bind(given, member.id, organizationId, admin.id, `/media/achievement-images/${organizationId}/given.png`),
      env.DB.prepare(
        "insert into achievements (id, user_id, organization_id, created_by, title, date, type, status, is_visible, created_at) values (?, ?, null, ?, 'Mine', '2024-01-01', 'award', 'accepted', 1, 0)",
      ).bind(received, admin.id, admin.id),
    ]);
    await env.MEDIA.put(`achievement-images/${organizationId}/given.png`, "png");

    await purgeUser({ db: createDb(env.DB), media: env.MEDIA, env }, admin.id);

    expect(await env.DB.prepare("select created_by from achievements where id = ?").bind(given).first()).toEqual({
      created_by: null,
    });
    expect(await countRows("select count(*) as n from achievements where id = ?", received)).toBe(0);
    expect(await env.MEDIA.head(`achievement-images/${organizationId}/given.png`)).not.toBeNull();
    // Still on the member's public passport.
    expect(await (await get(`/passport/${member.id}`)).text()).toContain("Given");
  });

  it("one failing purge never stops the cron from purging the rest", async () => {
    const accounts = await Promise.all([createAccount(), createAccount(), createAccount()]);
    await env.DB.prepare(`update profiles set deleted_at = ? where id in (?, ?, ?)`)
      .bind(Date.now() - 31 * DAY, ...accounts.map((account) => account.id))
      .run();
    const db = createDb(env.DB);
    const broken = accounts[1]!.id;
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const { purged, failed } = await purgeExpiredAccounts({ db, media: env.MEDIA, env }, new Date(), async (userId) => {
      if (userId === broken) throw new Error("R2 is down");
      await purgeUser({ db, media: env.MEDIA, env }, userId);
    });
    expect(failed).toEqual([broken]);
    expect(purged.sort()).toEqual(
      accounts
        .map((account) => account.id)
        .filter((id) => id !== broken)
        .sort(),
    );
    expect(await countRows("select count(*) as n from users where id = ?", broken)).toBe(1);
    expect(errors.mock.calls.some(([line]) => String(line).includes("purge failed"))).toBe(true);
    errors.mockRestore();
  });

  it("the cron cleans up old rate-limit rows, dev-mailbox rows and expired tokens", async () => {
    const old = Date.now() - 8 * DAY;
    await env.DB.batch([
      env.DB.prepare("insert into rate_limits (id, key, count, last_request) values (?, 'sign-in:old', 3, ?)").bind(
        crypto.randomUUID(),
        old,
      ),
      env.DB.prepare("insert into rate_limits (id, key, count, last_request) values (?, 'sign-in:new', 3, ?)").bind(
        crypto.randomUUID(),
        Date.now(),
      ),
      env.DB.prepare(
        "insert into dev_mail (id, \"to\", subject, text, html, created_at) values (?, 'old@example.com', 's', 't', 'h', ?)",
      ).bind(crypto.randomUUID(), old),
      env.DB.prepare(
        "insert into verifications (id, identifier, value, expires_at, created_at, updated_at) values (?, 'reset-password:old', 'x', ?, ?, ?)",
      ).bind(crypto.randomUUID(), Date.now() - 1000, old, old),
    ]);
    const { cleanUpExpiredRows } = await import("#app/services/account-purge.server.ts");
    await cleanUpExpiredRows(createDb(env.DB));
    expect(await countRows("select count(*) as n from rate_limits where key = 'sign-in:old'")).toBe(0);
    expect(await countRows("select count(*) as n from rate_limits where key = 'sign-in:new'")).toBe(1);
    expect(await countRows("select count(*) as n from dev_mail where \"to\" = 'old@example.com'")).toBe(0);
    expect(await countRows("select count(*) as n from verifications where identifier = 'reset-password:old'")).toBe(0);
  });

  it("permanent deletion from the archived screen asks for the current password", async () => {
    const { id, cookie } = await createAccount();
    await postForm("/settings/danger", { intent: "archive" }, { cookie });
    const missing = await postForm("/settings", { intent: "purge" }, { cookie });
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain("Password is required");
    expect((await postForm("/settings", { intent: "purge", password: PASSWORD }, { cookie })).status).toBe(302);
    expect(await countRows("select count(*) as n from users where id = ?", id)).toBe(0);
  });
});

describe("the environment fails closed", () => {
  const base = {
    SESSION_SECRET: "s".repeat(40),
    APP_URL: "https://passport.example",
    CREDENTIAL_KEY_SECRET: "k".repeat(40),
    TWO_FACTOR_SECRETS: `1:${"t".repeat(40)}`,
  };

  it("reads an unset or unknown ENVIRONMENT as production", () => {
    expect(readEnv({ ...base }).ENVIRONMENT).toBe("production");
    expect(readEnv({ ...base, ENVIRONMENT: "staging" }).ENVIRONMENT).toBe("production");
    expect(readEnv({ ...base, ENVIRONMENT: "Development" }).ENVIRONMENT).toBe("production");
    expect(readEnv({ ...base, ENVIRONMENT: "development" }).ENVIRONMENT).toBe("development");
    expect(readEnv({ ...base, ENVIRONMENT: "test" }).ENVIRONMENT).toBe("test");
  });

  it("refuses to start production with the example SESSION_SECRET or without APP_URL", () => {
    expect(() => readEnv({ ...base, SESSION_SECRET: EXAMPLE_SESSION_SECRET })).toThrow(/SESSION_SECRET/);
    expect(() => readEnv({ ...base, APP_URL: undefined })).toThrow(/APP_URL/);
    // Local development may use both.
    expect(readEnv({ ENVIRONMENT: "development", SESSION_SECRET: EXAMPLE_SESSION_SECRET }).APP_URL).toBeUndefined();
  });

  it("refuses to start production without CREDENTIAL_KEY_SECRET, and derives no key from SESSION_SECRET there", async () => {
    for (const unset of [undefined, ""]) {
      expect(() => readEnv({ ...base, CREDENTIAL_KEY_SECRET: unset })).toThrow(/CREDENTIAL_KEY_SECRET/);
    }
    expect(readEnv(base).CREDENTIAL_KEY_SECRET).toBe(base.CREDENTIAL_KEY_SECRET);
    // Outside production an unset secret means SESSION_SECRET, so a fresh clone signs as before.
    for (const ENVIRONMENT of ["development", "test"]) {
      expect(readEnv({ ...base, ENVIRONMENT, CREDENTIAL_KEY_SECRET: "" }).CREDENTIAL_KEY_SECRET).toBe(
        base.SESSION_SECRET,
      );
    }
    // Deployed without it, nothing is served, so nothing is signed: not a credential, not a DID document.
    expectConsoleError(/CREDENTIAL_KEY_SECRET/);
    expectConsoleError(/"request failed"/);
    const deployed = { ...productionBindings(), CREDENTIAL_KEY_SECRET: "" } as unknown as Env;
    for (const path of ["/", `/orgs/${crypto.randomUUID()}/did.json`]) {
      const response = await worker.fetch(new Request(`${ORIGIN}${path}`), deployed, createExecutionContext());
      expect(response.status, path).toBe(500);
      await response.text();
    }
  });

  it("refuses to start production without TWO_FACTOR_SECRETS, or with SESSION_SECRET's value among them", () => {
    for (const unset of [undefined, ""]) {
      expect(() => readEnv({ ...base, TWO_FACTOR_SECRETS: unset })).toThrow(/TWO_FACTOR_SECRETS/);
    }
    const reused = `2:${"n".repeat(40)},1:${base.SESSION_SECRET}`;
    expect(() => readEnv({ ...base, TWO_FACTOR_SECRETS: reused })).toThrow(/must not be SESSION_SECRET's value/);
    // Versions, newest first; each secret at least 32 characters, each version once.
    for (const malformed of [
      "t".repeat(40),
      `0:${"t".repeat(40)}`,
      "1:short",
      `1:${"a".repeat(40)},1:${"b".repeat(40)}`,
    ]) {
      expect(() => readEnv({ ...base, TWO_FACTOR_SECRETS: malformed }), malformed).toThrow(/TWO_FACTOR_SECRETS/);
    }
    expect(
      readEnv({ ...base, TWO_FACTOR_SECRETS: `2:${"n".repeat(40)}, 1:${"o".repeat(40)}` }).TWO_FACTOR_SECRETS,
    ).toEqual([
      { version: 2, value: "n".repeat(40) },
      { version: 1, value: "o".repeat(40) },
    ]);
    // Outside production an unset one is version 1 = SESSION_SECRET, what a fresh clone always used.
    expect(readEnv({ ...base, ENVIRONMENT: "development", TWO_FACTOR_SECRETS: "" }).TWO_FACTOR_SECRETS).toEqual([
      { version: 1, value: base.SESSION_SECRET },
    ]);
  });

  it("serves pages but not the dev mailbox, the simulated checkout or diagnostics when ENVIRONMENT is unset or unknown", async () => {
    for (const value of [undefined, "staging", "Development", "production"]) {
      const bindings = productionBindings(value);
      const fetchPath = (path: string) =>
        worker.fetch(new Request(`http://localhost${path}`), bindings, createExecutionContext());
      expect((await fetchPath("/")).status, `/ with ${value}`).toBe(200);
      for (const path of ["/dev/mail", "/dev/mail.json", "/billing/simulated-checkout?session=x"]) {
        expect((await fetchPath(path)).status, `${path} with ${value}`).toBe(404);
      }
      // Nor the diagnostics that tests and the benchmark read.
      const page = await fetchPath("/passport/" + crypto.randomUUID());
      await page.text();
      for (const header of ["X-D1-Round-Trips", "X-D1-Rows-Read", "Server-Timing"])
        expect(page.headers.get(header), `${header} with ${value}`).toBeNull();
    }
  });

  it("never runs the simulated checkout once STRIPE_SECRET_KEY is set, even outside production", async () => {
    const { admin } = await organisationWithMember();
    const bindings = { ...env, STRIPE_SECRET_KEY: "sk_test_fake" } as unknown as Env;
    const response = await worker.fetch(
      new Request("http://localhost/billing/simulated-checkout?session=x", { headers: { Cookie: admin.cookie } }),
      bindings,
      createExecutionContext(),
    );
    expect(response.status).toBe(404);
  });
});
