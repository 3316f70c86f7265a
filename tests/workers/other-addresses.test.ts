import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { unzipSync, strFromU8 } from "fflate";
import { describe, expect, it } from "vitest";
import worker from "#workers/test-app.ts";
import { createDb } from "#db/client.ts";
import { runParts } from "#db/queries/batch-parts.ts";
import { confirmedAddressesOf, confirmedAddressesPart, MAX_OTHER_ADDRESSES } from "#db/queries/other-addresses.ts";
import { passkeysPart } from "#db/queries/passkeys.ts";
import { ADDRESS_LIMIT_MESSAGE, RATE_LIMITS } from "#app/utils/rate-limit.server.ts";
import { countRows, createAccount, get, mailsTo, PASSWORD, postForm, toastFrom, uniqueEmail } from "./helpers.ts";

// Settings' 'Other e-mail addresses' (issue 32, decision 068): add one, confirm it by the link
// mailed to it (opened by the same person, signed in), resend the link, remove it. Confirmed
// addresses are what `confirmedAddressesOf` gives the credential importer.

type Person = Awaited<ReturnType<typeof createAccount>>;
const CONFIRM = "/settings/addresses/confirm";
const SUBJECT = "Confirm your email address for%";
const db = () => createDb(env.DB);

const add = (person: Person, address: string) =>
  postForm("/settings/addresses", { intent: "add-other-address", address }, { cookie: person.cookie });
const resend = (person: Person, addressId: string) =>
  postForm("/settings/addresses", { intent: "resend-other-address", addressId }, { cookie: person.cookie });
const remove = (person: Person, addressId: string) =>
  postForm("/settings/addresses", { intent: "remove-other-address", addressId }, { cookie: person.cookie });
const confirm = (token: string, cookie?: string) => postForm(CONFIRM, { token }, { cookie });

/** The token of the newest link mailed to the address. */
async function linkTo(address: string) {
  const [mail] = await mailsTo(address, SUBJECT);
  if (!mail) return null;
  const link = /(https?:\/\/\S+\/settings\/addresses\/confirm\?token=\S+)/.exec(mail.text)![1]!;
  return new URL(link).searchParams.get("token")!;
}

const rowOf = (userId: string, address: string) =>
  env.DB.prepare(
    "select id, token_hash as tokenHash, confirmed_at as confirmedAt, expires_at as expiresAt from other_addresses where user_id = ? and address = ?",
  )
    .bind(userId, address)
    .first<{ id: string; tokenHash: string; confirmedAt: number | null; expiresAt: number }>();

/** The link's page as the person sees it (its heading). */
async function pageOf(token: string, cookie: string) {
  const response = await get(`${CONFIRM}?token=${encodeURIComponent(token)}`, cookie);
  return { status: response.status, html: await response.text() };
}

/** Moves the address's last mailed link back in time, past the minute that counts as one request. */
const age = (userId: string, address: string, ms = 2 * 60 * 1000) =>
  env.DB.prepare("update other_addresses set sent_at = sent_at - ? where user_id = ? and address = ?")
    .bind(ms, userId, address)
    .run();

/** Adds and confirms an address for the person, through the forms. */
async function addConfirmed(person: Person, address: string) {
  expect((await add(person, address)).status).toBe(302);
  expect((await confirm((await linkTo(address))!, person.cookie)).status).toBe(302);
}

describe("adding an address", () => {
  it("stores it pending, normalised, and mails it a link that only shows a page until confirmed", async () => {
    const person = await createAccount();
    const address = uniqueEmail("Work").toUpperCase();
    const normal = address.toLowerCase();

    const added = await add(person, `  ${address} `);
    expect(added.status).toBe(302);
    expect(added.headers.get("Location")).toBe("/settings/addresses");
    expect(toastFrom(added)).toMatchObject({ title: "Check your inbox" });
    expect(toastFrom(added)?.description).toContain(normal);
    const row = await rowOf(person.id, normal);
    expect(row).toMatchObject({ confirmedAt: null });
    // The link's token is in the mail only; the table holds its hash.
    const token = (await linkTo(normal))!;
    expect(row!.tokenHash).not.toContain(token);
    expect(row!.tokenHash).toMatch(/^[0-9a-f]{64}$/);

    const settings = await (await get("/settings/addresses", person.cookie)).text();
    expect(settings).toContain("Other e-mail addresses");
    expect(settings).toContain(normal);
    expect(settings).toContain("Waiting for confirmation");

    // A GET (a mail scanner, a prefetch, the person opening it) shows the page and confirms nothing.
    const page = await pageOf(token, person.cookie);
    expect(page.status).toBe(200);
    expect(page.html).toContain("Confirm your email address");
    expect(page.html).toContain(normal);
    expect((await rowOf(person.id, normal))!.confirmedAt).toBeNull();
    expect(await confirmedAddressesOf(db(), person.id)).toEqual([person.email]);

    const confirmed = await confirm(token, person.cookie);
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("Location")).toBe("/settings/addresses");
    expect(toastFrom(confirmed)).toMatchObject({ title: "Address confirmed" });
    expect(await confirmedAddressesOf(db(), person.id)).toEqual([person.email, normal]);
    expect(await (await get("/settings/addresses", person.cookie)).text()).toContain("Confirmed");
  });

  it("answers a double submit as the first time, mailing once", async () => {
    const person = await createAccount();
    const address = uniqueEmail("double");
    const [first, second] = [await add(person, address), await add(person, address)];
    expect(first.status).toBe(302);
    expect(second.status).toBe(302);
    expect(toastFrom(second)).toEqual(toastFrom(first));
    expect(await mailsTo(address, SUBJECT)).toHaveLength(1);
    expect(await countRows("select count(*) as n from other_addresses where user_id = ?", person.id)).toBe(1);
  });

  it.each([
    [
      "the person's own sign-in address",
      (p: Person) => `  ${p.email.toUpperCase()}`,
      "This is already your sign-in address.",
    ],
    ["not an address", () => "not-an-address", "Invalid email address"],
    ["too long", () => `${"a".repeat(250)}@example.com`, "Email must be less than 255 characters"],
  ])("refuses %s, keeping what was typed", async (_, typed, message) => {
    const person = await createAccount();
    const value = typed(person);
    const response = await add(person, value);
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain(message);
    expect(html).toContain(`value="${value}"`);
    expect(await countRows("select count(*) as n from other_addresses where user_id = ?", person.id)).toBe(0);
  });

  it("refuses an address the person already confirmed", async () => {
    const person = await createAccount();
    const address = uniqueEmail("twice");
    await addConfirmed(person, address);
    const again = await add(person, address);
    expect(again.status).toBe(400);
    expect(await again.text()).toContain("You have already confirmed this address.");
  });

  it(`holds at most ${MAX_OTHER_ADDRESSES} addresses per person`, async () => {
    const person = await createAccount();
    const now = Date.now();
    await env.DB.batch(
      Array.from({ length: MAX_OTHER_ADDRESSES }, (_, at) =>
        env.DB.prepare(
          "insert into other_addresses (id, user_id, address, token_hash, sent_at, expires_at, created_at) values (?, ?, ?, ?, ?, ?, ?)",
        ).bind(crypto.randomUUID(), person.id, `held-${at}@example.com`, crypto.randomUUID(), now, now + 1000, now),
      ),
    );
    const address = uniqueEmail("eleventh");
    const refused = await add(person, address);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(
      `You can add up to ${MAX_OTHER_ADDRESSES} other addresses. Remove one to add another.`,
    );
    expect(await mailsTo(address)).toHaveLength(0);
    // No form to add one: what to do instead.
    const settings = await (await get("/settings/addresses", person.cookie)).text();
    expect(settings).toContain("other addresses, the most one account can hold. Remove one to add another.");
    expect(settings).not.toContain('name="address"');
  });
});

describe("the link", () => {
  it("needs its person signed in: signed out, it leads to sign-in and back, and a post confirms nothing", async () => {
    const person = await createAccount();
    const address = uniqueEmail("signed-out");
    await add(person, address);
    const token = (await linkTo(address))!;
    const opened = await get(`${CONFIRM}?token=${token}`);
    expect(opened.status).toBe(302);
    expect(opened.headers.get("Location")).toBe(`/auth?redirectTo=${encodeURIComponent(`${CONFIRM}?token=${token}`)}`);
    expect((await confirm(token)).status).toBe(302);
    expect((await rowOf(person.id, address))!.confirmedAt).toBeNull();
  });

  it("opened by another signed-in account, attaches the address to nobody", async () => {
    const [owner, other] = [await createAccount(), await createAccount()];
    const address = uniqueEmail("wrong-account");
    await add(owner, address);
    const token = (await linkTo(address))!;
    const page = await pageOf(token, other.cookie);
    expect(page.html).toContain("This link is for another account");
    expect(page.html).not.toContain(owner.email);
    const posted = await confirm(token, other.cookie);
    expect(posted.status).toBe(403);
    expect(await countRows("select count(*) as n from other_addresses where user_id = ?", other.id)).toBe(0);
    expect((await rowOf(owner.id, address))!.confirmedAt).toBeNull();
    // The owner can still use it.
    expect((await confirm(token, owner.cookie)).status).toBe(302);
    expect(await confirmedAddressesOf(db(), owner.id)).toContain(address);
  });

  it("works once: a second post changes nothing, and a removed and re-added address's old link is void", async () => {
    const person = await createAccount();
    const address = uniqueEmail("once");
    await add(person, address);
    const token = (await linkTo(address))!;
    await confirm(token, person.cookie);
    const { confirmedAt } = (await rowOf(person.id, address))!;
    const again = await confirm(token, person.cookie);
    expect(again.status).toBe(302);
    expect((await rowOf(person.id, address))!.confirmedAt).toBe(confirmedAt);
    expect((await pageOf(token, person.cookie)).html).toContain("Address confirmed");

    expect((await remove(person, (await rowOf(person.id, address))!.id)).status).toBe(302);
    expect((await add(person, address)).status).toBe(302);
    const stale = await confirm(token, person.cookie);
    expect(stale.status).toBe(400);
    expect(await stale.text()).toContain("This link is not valid");
    expect((await rowOf(person.id, address))!.confirmedAt).toBeNull();
  });

  it("expires: refused after its hours, and a resent link works while the old one does not", async () => {
    const person = await createAccount();
    const address = uniqueEmail("expiring");
    await add(person, address);
    const old = (await linkTo(address))!;
    await env.DB.prepare("update other_addresses set expires_at = ?, sent_at = ? where user_id = ?")
      .bind(Date.now() - 1, Date.now() - 25 * 60 * 60 * 1000, person.id)
      .run();
    expect((await pageOf(old, person.cookie)).html).toContain("This link has expired");
    const refused = await confirm(old, person.cookie);
    expect(refused.status).toBe(400);
    expect((await rowOf(person.id, address))!.confirmedAt).toBeNull();
    expect(await (await get("/settings/addresses", person.cookie)).text()).toContain("Link expired");

    const resent = await resend(person, (await rowOf(person.id, address))!.id);
    expect(resent.status).toBe(302);
    expect(toastFrom(resent)).toMatchObject({ title: "Check your inbox" });
    const fresh = (await linkTo(address))!;
    expect(fresh).not.toBe(old);
    expect((await pageOf(old, person.cookie)).html).toContain("This link is not valid");
    expect((await confirm(old, person.cookie)).status).toBe(400);
    expect((await confirm(fresh, person.cookie)).status).toBe(302);
    expect(await confirmedAddressesOf(db(), person.id)).toContain(address);
  });

  it("is refused with a garbled or missing token", async () => {
    const person = await createAccount();
    expect((await pageOf("nonsense", person.cookie)).html).toContain("This link is not valid");
    expect((await pageOf("", person.cookie)).html).toContain("This link is not valid");
    expect((await confirm("", person.cookie)).status).toBe(400);
  });
});

describe("an address someone else holds", () => {
  it("is accepted and mailed as any other, and only its link's page says it cannot be added", async () => {
    const [holder, other] = [await createAccount(), await createAccount()];
    const address = uniqueEmail("shared");
    await addConfirmed(holder, address);

    // Adding says nothing about who holds it: the same answer as for a free address.
    const added = await add(other, address);
    expect(added.status).toBe(302);
    expect(toastFrom(added)).toMatchObject({ title: "Check your inbox" });
    const token = (await linkTo(address))!;
    const page = await pageOf(token, other.cookie);
    expect(page.html).toContain("This address cannot be added");
    expect(page.html).not.toContain(holder.email);
    const refused = await confirm(token, other.cookie);
    expect(refused.status).toBe(400);
    expect(await confirmedAddressesOf(db(), other.id)).toEqual([other.email]);

    // Once the holder removes it, the other person's link confirms it.
    const holderRow = (await rowOf(holder.id, address))!;
    expect((await remove(holder, holderRow.id)).status).toBe(302);
    expect((await confirm(token, other.cookie)).status).toBe(302);
    expect(await confirmedAddressesOf(db(), other.id)).toEqual([other.email, address]);
  });

  it("includes another account's sign-in address", async () => {
    const [holder, other] = [await createAccount(), await createAccount()];
    await add(other, holder.email);
    const token = (await linkTo(holder.email))!;
    expect((await pageOf(token, other.cookie)).html).toContain("This address cannot be added");
    expect((await confirm(token, other.cookie)).status).toBe(400);
    expect(await confirmedAddressesOf(db(), other.id)).toEqual([other.email]);
  });
});

describe("resending and removing", () => {
  it("resends a new link a minute after the last, and refuses another's or a confirmed address (404)", async () => {
    const [person, other] = [await createAccount(), await createAccount()];
    const address = uniqueEmail("resend");
    await add(person, address);
    const { id } = (await rowOf(person.id, address))!;
    // Within the minute: the same request again (a double submit), no second mail.
    expect((await resend(person, id)).status).toBe(302);
    expect(await mailsTo(address, SUBJECT)).toHaveLength(1);
    await age(person.id, address);
    expect((await resend(person, id)).status).toBe(302);
    expect(await mailsTo(address, SUBJECT)).toHaveLength(2);

    expect((await resend(other, id)).status).toBe(404);
    expect(await mailsTo(address, SUBJECT)).toHaveLength(2);
    await age(person.id, address);
    await confirm((await linkTo(address))!, person.cookie);
    await age(person.id, address);
    expect((await resend(person, id)).status).toBe(404);
  });

  it("removes only the person's own address (another's is not found)", async () => {
    const [person, other] = [await createAccount(), await createAccount()];
    const address = uniqueEmail("remove");
    await addConfirmed(person, address);
    const { id } = (await rowOf(person.id, address))!;
    expect((await remove(other, id)).status).toBe(404);
    expect(await rowOf(person.id, address)).not.toBeNull();
    const removed = await remove(person, id);
    expect(removed.status).toBe(302);
    expect(toastFrom(removed)).toMatchObject({ title: "Address removed" });
    expect(await rowOf(person.id, address)).toBeNull();
    expect(await confirmedAddressesOf(db(), person.id)).toEqual([person.email]);
    expect((await remove(person, id)).status).toBe(404);
  });
});

describe("rate limits", () => {
  it("mail one address at most 3 times an hour, from anyone", async () => {
    const [person, other] = [await createAccount(), await createAccount()];
    const address = uniqueEmail("flooded");
    await add(person, address);
    const { id } = (await rowOf(person.id, address))!;
    await age(person.id, address);
    await resend(person, id);
    await add(other, address);
    const refused = await add(await createAccount(), address);
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain(ADDRESS_LIMIT_MESSAGE);
    expect(await mailsTo(address, SUBJECT)).toHaveLength(3);
  });

  it("let one person ask for a limited number of links an hour", async () => {
    const person = await createAccount();
    await env.DB.prepare("insert into rate_limits (id, key, count, last_request) values (?, ?, ?, ?)")
      .bind(
        crypto.randomUUID(),
        `other-address-mail:user:${person.id}`,
        RATE_LIMITS["other-address-mail"].max,
        Date.now(),
      )
      .run();
    const address = uniqueEmail("limited");
    const refused = await add(person, address);
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain("You have asked for many links in the last hour.");
    expect(await mailsTo(address)).toHaveLength(0);
    expect(await rowOf(person.id, address)).toBeNull();
  });
});

describe("what the importer reads", () => {
  it("gives the sign-in address and the confirmed ones, lower-cased, also as a part of a batch", async () => {
    const person = await createAccount();
    const confirmed = uniqueEmail("confirmed");
    const pending = uniqueEmail("pending");
    await addConfirmed(person, confirmed);
    await add(person, pending);
    await env.DB.prepare("update users set email = upper(email) where id = ?").bind(person.id).run();
    const [addresses, passkeys] = await runParts(db(), [
      confirmedAddressesPart(db(), person.id),
      passkeysPart(db(), person.id),
    ]);
    expect(addresses).toEqual([person.email.toLowerCase(), confirmed]);
    expect(passkeys).toEqual([]);
    expect(await confirmedAddressesOf(db(), crypto.randomUUID())).toEqual([]);
  });
});

describe("leaving", () => {
  it("the data export includes the addresses, pending and confirmed, without their tokens", async () => {
    const person = await createAccount();
    const [confirmed, pending] = [uniqueEmail("export-confirmed"), uniqueEmail("export-pending")];
    await addConfirmed(person, confirmed);
    await add(person, pending);
    const response = await postForm("/settings/export", {}, { cookie: person.cookie });
    expect(response.status).toBe(200);
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    const data = JSON.parse(strFromU8(files["data.json"]!)) as { otherEmailAddresses: Record<string, unknown>[] };
    expect(data.otherEmailAddresses.map((row) => [row.address, row.confirmedAt !== null])).toEqual([
      [confirmed, true],
      [pending, false],
    ]);
    const text = strFromU8(files["data.json"]!);
    expect(text).not.toContain("token");
  });

  it("deleting the account deletes them; the daily clean-up drops pending ones a week after their link lapsed", async () => {
    const person = await createAccount();
    const [confirmed, lapsed, fresh] = ["kept", "lapsed", "fresh"].map((name) => uniqueEmail(name));
    await addConfirmed(person, confirmed!);
    await add(person, lapsed!);
    await add(person, fresh!);
    await env.DB.prepare("update other_addresses set expires_at = ? where user_id = ? and address = ?")
      .bind(Date.now() - 8 * 24 * 60 * 60 * 1000, person.id, lapsed)
      .run();
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "0 3 * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await rowOf(person.id, lapsed!)).toBeNull();
    expect(await rowOf(person.id, fresh!)).not.toBeNull();
    expect(await rowOf(person.id, confirmed!)).not.toBeNull();

    await postForm("/settings/danger", { intent: "archive" }, { cookie: person.cookie });
    await postForm("/settings", { intent: "purge", password: PASSWORD }, { cookie: person.cookie });
    expect(await countRows("select count(*) as n from users where id = ?", person.id)).toBe(0);
    expect(await countRows("select count(*) as n from other_addresses where user_id = ?", person.id)).toBe(0);
  });
});
