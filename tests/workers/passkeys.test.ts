import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "#workers/test-app.ts";
import { MAX_PASSKEYS } from "#db/queries/passkeys.ts";
import { RATE_LIMITS } from "#app/utils/rate-limit.server.ts";
import {
  cookiesFrom,
  countRows,
  createAccount,
  exportOf,
  formRequest,
  get,
  mailsTo,
  newClientNetwork,
  PASSWORD,
  postForm,
  signIn,
  toastFrom,
  unzip,
} from "./helpers.ts";
import { expectConsoleError } from "./console-errors.ts";
import {
  addPasskey,
  registrationOptions,
  signInOptions,
  type Authenticator,
  type Person,
} from "./passkey-ceremonies.ts";
import { softwarePasskey } from "./software-passkey.ts";

// Passkeys (issue 30, decision 061): added from Settings after the password, only those that
// verify the person; signing in with one is both factors, with no code asked; each named, dated
// and removed by its owner alone. The answers come from an authenticator in memory and are checked
// by the auth library's WebAuthn verifier (@simplewebauthn/server).

/** 'Sign in with a passkey' from a browser with no session: the answer, and the cookies it leaves. */
async function signInWithPasskey(authenticator: Authenticator, { redirectTo = "" } = {}) {
  const { options, cookie: challengeCookie } = await signInOptions();
  const response = await postForm(
    "/auth",
    { intent: "passkey-signin", response: await authenticator.sign(options), redirectTo },
    { cookie: challengeCookie },
  );
  return { response, options, challengeCookie, cookie: cookiesFrom(response) };
}

const passkeysOf = (userId: string) =>
  env.DB.prepare("select name, last_used_at as lastUsedAt from passkeys where user_id = ?")
    .bind(userId)
    .all<{ name: string | null; lastUsedAt: number | null }>()
    .then((result) => result.results);

const passkeyIdNamed = async (userId: string, name: string) =>
  (await env.DB.prepare("select id from passkeys where user_id = ? and name = ?")
    .bind(userId, name)
    .first<{ id: string }>())!.id;

/** 'Remove' confirmed with a passkey, as the page's script does it: a challenge, then the signed answer. */
async function removeWithPasskey(person: Person, passkeyId: string, authenticator: Authenticator) {
  const { options, cookie } = await signInOptions(person.cookie);
  return postForm(
    "/settings/security",
    { intent: "remove-passkey", passkeyId, response: await authenticator.sign(options) },
    { cookie },
  );
}

async function personWithPasskey(name = "") {
  const person = await createAccount();
  const authenticator = await softwarePasskey();
  const added = await addPasskey(person, authenticator, name);
  expect(added.status).toBe(302);
  expect(toastFrom(added)?.title).toBe("Passkey added");
  return { person, authenticator };
}

describe("adding a passkey", () => {
  it("asks for the password first, and offers a discoverable passkey that verifies the person", async () => {
    const person = await createAccount();
    const refused = await postForm(
      "/settings/security",
      { intent: "passkey-options", password: "wrong-password-1" },
      person,
    );
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Current password is incorrect");

    const { options } = await registrationOptions(person);
    const selection = (options as unknown as { authenticatorSelection: Record<string, unknown> })
      .authenticatorSelection;
    expect(options?.rp.id).toBe("localhost");
    expect(selection).toMatchObject({ residentKey: "required", userVerification: "preferred" });
  });

  it("keeps the passkey with its name, and Settings lists it", async () => {
    const { person } = await personWithPasskey("Work laptop");
    expect(await passkeysOf(person.id)).toEqual([{ name: "Work laptop", lastUsedAt: null }]);
    const page = await (await get("/settings/security", person.cookie)).text();
    expect(page).toContain('aria-label="Your passkeys"');
    expect(page).toContain("Work laptop");
    expect(page).toContain("Not used yet");
  });

  it("is in the person's data export, by name and dates, without its key", async () => {
    const { person } = await personWithPasskey("Work laptop");
    const { json } = await unzip(await exportOf(person.cookie));
    const data = json("data.json");
    expect(data.profile.twoFactorEnabled).toBe(false);
    expect(data.passkeys).toEqual([
      expect.objectContaining({ name: "Work laptop", createdAt: expect.stringMatching(/Z$/), lastUsedAt: null }),
    ]);
    expect(Object.keys(data.passkeys[0])).not.toContain("publicKey");
  });

  it("refuses a passkey without the challenge this browser was given after the password", async () => {
    const person = await createAccount();
    const authenticator = await softwarePasskey();
    // Options asked for by another browser of the same person: this one holds no challenge.
    const { options } = await registrationOptions(person);
    const response = await authenticator.create(options!);
    const refused = await postForm("/settings/security", { intent: "add-passkey", response }, person);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("The passkey took too long to answer");
    expect(await passkeysOf(person.id)).toEqual([]);
  });

  it("refuses a passkey that did not verify the person (no PIN, fingerprint or face)", async () => {
    const person = await createAccount();
    const refused = await addPasskey(person, await softwarePasskey({ userVerified: false }));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("did not ask for your PIN, fingerprint or face");
    expect(await passkeysOf(person.id)).toEqual([]);
  });

  it("refuses an answer made for another site", async () => {
    expectConsoleError(/Unexpected registration response origin/);
    const person = await createAccount();
    const refused = await addPasskey(person, await softwarePasskey({ origin: "https://evil.example" }));
    expect(refused.status).toBe(400);
    expect(await passkeysOf(person.id)).toEqual([]);
  });

  it(`holds at most ${MAX_PASSKEYS} passkeys a person`, async () => {
    const person = await createAccount();
    await env.DB.batch(
      Array.from({ length: MAX_PASSKEYS }, () =>
        env.DB.prepare(
          "insert into passkeys (id, public_key, user_id, credential_id, device_type, created_at) values (?, 'key', ?, ?, 'multiDevice', ?)",
        ).bind(crypto.randomUUID(), person.id, crypto.randomUUID(), Date.now()),
      ),
    );
    const refused = await postForm("/settings/security", { intent: "passkey-options", password: PASSWORD }, person);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(`You have ${MAX_PASSKEYS} passkeys`);
    const page = await (await get("/settings/security", person.cookie)).text();
    expect(page.match(/>Remove</g)?.length).toBeGreaterThanOrEqual(MAX_PASSKEYS);
  });
});

describe("signing in with a passkey", () => {
  it("signs in with no e-mail address or password, and dates the passkey", async () => {
    const { person, authenticator } = await personWithPasskey();
    const { response, options, cookie } = await signInWithPasskey(authenticator);
    // The options name no account: any passkey of the site may answer.
    expect(options.allowCredentials ?? []).toEqual([]);
    expect(options.rpId).toBe("localhost");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard");
    const viewer = await get("/settings", cookie);
    expect(viewer.status).toBe(200);
    expect(await viewer.text()).toContain(person.email);
    expect((await passkeysOf(person.id))[0]?.lastUsedAt).toBeGreaterThan(Date.now() - 60_000);
  });

  it("counts as both factors: with two-factor on, no code is asked", async () => {
    const { person, authenticator } = await personWithPasskey();
    await env.DB.prepare("update users set two_factor_enabled = 1 where id = ?").bind(person.id).run();
    const password = await signIn(person.email);
    expect(password.headers.get("Location")).toContain("/auth/two-factor");
    const { response } = await signInWithPasskey(authenticator, { redirectTo: "/settings" });
    expect(response.headers.get("Location")).toBe("/settings");
  });

  it("still works while password sign-in is paused after wrong passwords", async () => {
    const { person, authenticator } = await personWithPasskey();
    for (let attempt = 0; attempt < 10; attempt++) await signIn(person.email, "wrong-password-1", newClientNetwork());
    expect((await signIn(person.email, PASSWORD, newClientNetwork())).status).toBe(429);
    expect((await signInWithPasskey(authenticator)).response.status).toBe(302);
  });

  it("takes an answer once: the challenge is used up", async () => {
    const { authenticator } = await personWithPasskey();
    const { challengeCookie, options } = await signInWithPasskey(authenticator);
    const again = await postForm(
      "/auth",
      { intent: "passkey-signin", response: await authenticator.sign(options) },
      { cookie: challengeCookie },
    );
    expect(again.status).toBe(401);
    expect(await again.text()).toContain("The passkey took too long to answer");
  });

  it("refuses a passkey the site does not know, and one used without verifying the person", async () => {
    const unknown = await signInWithPasskey(await softwarePasskey());
    expect(unknown.response.status).toBe(401);
    expect(await unknown.response.text()).toContain("not registered with your account any more");

    // A passkey added with verification, used later without it: refused at sign-in too.
    const { person } = await personWithPasskey();
    const presenceOnly = await softwarePasskey({ userVerified: false });
    await env.DB.prepare(
      "update passkeys set credential_id = ?, public_key = (select public_key from passkeys where user_id = ?) where user_id = ?",
    )
      .bind(presenceOnly.id, person.id, person.id)
      .run();
    const refused = await signInWithPasskey(presenceOnly);
    expect(refused.response.status).toBe(401);
    expect(cookiesFrom(refused.response)).not.toContain("session_token");
  });

  it("says what it needs when posted without JavaScript", async () => {
    const refused = await postForm("/auth", { intent: "passkey-signin" });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Signing in with a passkey needs JavaScript");
  });

  it(`gives a network at most ${RATE_LIMITS["passkey-options"].max} challenges a minute`, async () => {
    const ip = newClientNetwork();
    const ask = async () => {
      const ctx = createExecutionContext();
      const response = await worker.fetch(formRequest("/auth/passkey-options", {}, { ip }), env, ctx);
      await waitOnExecutionContext(ctx);
      return response.status;
    };
    for (let i = 0; i < RATE_LIMITS["passkey-options"].max; i++) expect(await ask()).toBe(200);
    expect(await ask()).toBe(429);
  });
});

describe("renaming and removing a passkey", () => {
  it("renames the person's own passkey", async () => {
    const { person } = await personWithPasskey();
    const [{ id }] = (
      await env.DB.prepare("select id from passkeys where user_id = ?").bind(person.id).all<{ id: string }>()
    ).results as [{ id: string }];
    const renamed = await postForm(
      "/settings/security",
      { intent: "rename-passkey", passkeyId: id, name: "Phone" },
      person,
    );
    expect(toastFrom(renamed)?.title).toBe("Passkey renamed");
    expect((await passkeysOf(person.id))[0]?.name).toBe("Phone");
    const empty = await postForm("/settings/security", { intent: "rename-passkey", passkeyId: id, name: " " }, person);
    expect(empty.status).toBe(400);
    expect((await passkeysOf(person.id))[0]?.name).toBe("Phone");
  });

  it("removes it after the password, and it no longer signs in", async () => {
    const { person, authenticator } = await personWithPasskey();
    const id = (await env.DB.prepare("select id from passkeys where user_id = ?")
      .bind(person.id)
      .first<{ id: string }>())!.id;
    const wrong = await postForm(
      "/settings/security",
      { intent: "remove-passkey", passkeyId: id, password: "wrong-password-1" },
      person,
    );
    expect(wrong.status).toBe(400);
    expect(await countRows("select count(*) as n from passkeys where user_id = ?", person.id)).toBe(1);
    const removed = await postForm(
      "/settings/security",
      { intent: "remove-passkey", passkeyId: id, password: PASSWORD },
      person,
    );
    expect(toastFrom(removed)?.title).toBe("Passkey removed");
    expect(await countRows("select count(*) as n from passkeys where user_id = ?", person.id)).toBe(0);
    expect((await signInWithPasskey(authenticator)).response.status).toBe(401);
  });

  it("removes it after another of the person's passkeys, also for an account with no password, and the other still signs in", async () => {
    const { person, authenticator: removed } = await personWithPasskey("Old phone");
    const kept = await softwarePasskey();
    expect((await addPasskey(person, kept, "Laptop")).status).toBe(302);
    // An account that holds no password (its credential row gone): the passkey path needs none.
    await env.DB.prepare("delete from accounts where user_id = ? and provider_id = 'credential'").bind(person.id).run();
    const removedPasskey = await passkeyIdNamed(person.id, "Old phone");
    // The confirmation as the page renders it without JavaScript (?confirm=): the password form.
    const page = await (await get(`/settings/security?confirm=remove-passkey-${removedPasskey}`, person.cookie)).text();
    expect(page).toContain("Enter your password, or use another of your passkeys, to confirm.");
    const answer = await removeWithPasskey(person, removedPasskey, kept);
    expect(answer.status).toBe(302);
    expect(toastFrom(answer)?.title).toBe("Passkey removed");
    expect((await passkeysOf(person.id)).map((passkey) => passkey.name)).toEqual(["Laptop"]);
    expect((await signInWithPasskey(removed)).response.status).toBe(401);
    expect((await signInWithPasskey(kept)).response.status).toBe(302);
    expect(await mailsTo(person.email, "A passkey was removed from your account")).toHaveLength(1);
  });

  it("refuses to confirm a removal with the passkey removed, with another account's passkey, or without a challenge", async () => {
    const { person, authenticator: removed } = await personWithPasskey("Old phone");
    expect((await addPasskey(person, await softwarePasskey(), "Laptop")).status).toBe(302);
    const { person: other, authenticator: othersPasskey } = await personWithPasskey();
    const othersSessions = await countRows("select count(*) as n from sessions where user_id = ?", other.id);
    const passkeyId = await passkeyIdNamed(person.id, "Old phone");

    const itself = await removeWithPasskey(person, passkeyId, removed);
    expect(itself.status).toBe(400);
    expect(await itself.text()).toContain("Confirm with another of your passkeys, not the one you are removing.");
    const others = await removeWithPasskey(person, passkeyId, othersPasskey);
    expect(others.status).toBe(400);
    expect(await others.text()).toContain("That passkey belongs to another account. Use one of your own.");
    expect(await countRows("select count(*) as n from sessions where user_id = ?", other.id)).toBe(othersSessions);
    // An answer to a challenge this browser was not given (another browser's).
    const { options } = await signInOptions();
    const unasked = await postForm(
      "/settings/security",
      { intent: "remove-passkey", passkeyId, response: await removed.sign(options) },
      person,
    );
    expect(unasked.status).toBe(400);
    expect(await countRows("select count(*) as n from passkeys where user_id = ?", person.id)).toBe(2);
    expect(await mailsTo(person.email, "A passkey was removed from your account")).toHaveLength(0);
  });

  it("tells the owner by mail when a passkey is added and when one is removed", async () => {
    const { person } = await personWithPasskey();
    const [added] = await mailsTo(person.email, "A passkey was added to your account");
    expect(added?.text).toContain("http://localhost/settings/security#passkeys");
    const id = (await env.DB.prepare("select id from passkeys where user_id = ?")
      .bind(person.id)
      .first<{ id: string }>())!.id;
    await postForm("/settings/security", { intent: "remove-passkey", passkeyId: id, password: PASSWORD }, person);
    expect(await mailsTo(person.email, "A passkey was removed from your account")).toHaveLength(1);
  });
});
