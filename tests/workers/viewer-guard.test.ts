import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createOrganisationWithMember, giveAchievement } from "./factories.ts";
import { cookiesFrom, createAccount, get, postForm, signIn } from "./helpers.ts";

// The signed-in guard in one D1 round trip (issue 18, docs/decisions/036): the session cookie's
// signature is checked against the auth secret before anything is read, then one batch reads the
// session, its user, the profile and the organisations. Only a valid session not yet due for
// refresh is answered from that batch; an expired, revoked or forged one is refused at once, and
// one due for refresh is still refreshed by the auth library.

const DAY_MS = 24 * 60 * 60 * 1000;
/** better-auth's session settings in app/utils/auth.server.ts: 7 days unused, extended once an hour (decision 058). */
const SESSION_LIFETIME_MS = 7 * DAY_MS;
const SESSION_UPDATE_AGE_MS = 60 * 60 * 1000;

const SESSION_COOKIE = /((?:^|;\s*)passport\.session_token=)([^;]*)/;

const roundTrips = (response: Response) => Number(response.headers.get("X-D1-Round-Trips"));

/** The session cookie's token and signature (`{token}.{signature}`, URL-encoded in the header). */
function sessionCookieParts(cookie: string) {
  const [, , value] = SESSION_COOKIE.exec(cookie)!;
  const signed = decodeURIComponent(value!);
  const dot = signed.lastIndexOf(".");
  return { token: signed.slice(0, dot), signature: signed.slice(dot + 1) };
}

/** The cookie with its session cookie's value replaced by `value` (encoded as a browser sends it). */
const withSessionCookie = (cookie: string, value: string) =>
  cookie.replace(SESSION_COOKIE, (_pair, name: string) => `${name}${encodeURIComponent(value)}`);

async function sessionExpiry(token: string) {
  const row = await env.DB.prepare("select expires_at from sessions where token = ?")
    .bind(token)
    .first<{ expires_at: number }>();
  return row?.expires_at ?? null;
}

async function setSessionExpiry(token: string, expiresAt: number, lastRefreshedAt?: number) {
  await env.DB.prepare("update sessions set expires_at = ?, updated_at = coalesce(?, updated_at) where token = ?")
    .bind(expiresAt, lastRefreshedAt ?? null, token)
    .run();
}

const signInPage = "/auth?redirectTo=%2Fdashboard";

describe("the signed-in guard", () => {
  it("costs exactly one D1 round trip on a page whose loader needs only the guard", async () => {
    const person = await createAccount();
    const response = await get("/billing/return?checkout=complete", person.cookie);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard");
    expect(roundTrips(response)).toBe(1);
  });

  it("costs exactly one D1 round trip before an action refuses what it was sent (the round-trips baseline)", async () => {
    const person = await createAccount();
    for (const [path, fields, status] of [
      ["/dashboard", { intent: "no-such-intent" }, 400],
      ["/passport", { intent: "no-such-intent" }, 400],
      ["/settings", { intent: "no-such-intent" }, 400],
      ["/join/not-an-id.data", {}, 404],
    ] as const) {
      const response = await postForm(path, fields, { cookie: person.cookie });
      expect(response.status, path).toBe(status);
      expect(roundTrips(response), path).toBe(1);
    }
  });

  it("costs one round trip too for a session signed in without 'Keep me signed in', which is never extended", async () => {
    const person = await createAccount();
    const signedIn = await signIn(person.email);
    expect(signedIn.status).toBe(302);
    const cookie = cookiesFrom(signedIn);
    expect(cookie).toMatch(/passport\.dont_remember=/);
    const response = await get("/billing/return?checkout=complete", cookie);
    expect(response.headers.get("Location")).toBe("/dashboard");
    expect(roundTrips(response)).toBe(1);
  });

  it("leaves a session that is not yet due for refresh as it is", async () => {
    const person = await createAccount();
    const { token } = sessionCookieParts(person.cookie);
    const before = await sessionExpiry(token);
    expect((await get("/dashboard", person.cookie)).status).toBe(200);
    expect(await sessionExpiry(token)).toBe(before);
  });

  it("still has the auth library refresh a session due for it: its expiry moves an hour's use forward", async () => {
    const person = await createAccount();
    const { token } = sessionCookieParts(person.cookie);
    // Last extended an hour and a minute ago: better-auth's updateAge has passed.
    const refreshedAt = Date.now() - SESSION_UPDATE_AGE_MS - 60_000;
    const stale = refreshedAt + SESSION_LIFETIME_MS;
    await setSessionExpiry(token, stale, refreshedAt);

    const page = await get("/dashboard", person.cookie);
    expect(page.status).toBe(200);
    const refreshed = await sessionExpiry(token);
    expect(refreshed).toBeGreaterThan(stale + SESSION_UPDATE_AGE_MS - 60_000);
    expect(refreshed).toBeLessThanOrEqual(Date.now() + SESSION_LIFETIME_MS);
  });

  it("refuses an expired session at once, and the auth library removes it", async () => {
    const person = await createAccount();
    const { token } = sessionCookieParts(person.cookie);
    await setSessionExpiry(token, Date.now() - 1000);

    const page = await get("/dashboard", person.cookie);
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe(signInPage);
    expect(await sessionExpiry(token)).toBeNull();
  });

  it("refuses a revoked (deleted) session at once", async () => {
    const person = await createAccount();
    const { token } = sessionCookieParts(person.cookie);
    expect((await get("/dashboard", person.cookie)).status).toBe(200);
    await env.DB.prepare("delete from sessions where token = ?").bind(token).run();

    const page = await get("/dashboard", person.cookie);
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe(signInPage);
    // The guard's one read found no session: the auth library is not asked again (issue 43).
    expect(roundTrips(page)).toBe(1);
    const action = await postForm("/settings", { intent: "no-such-intent" }, { cookie: person.cookie });
    expect(action.status).toBe(302);
  });

  it("refuses a cookie whose signature was changed, before reading anything", async () => {
    const person = await createAccount();
    const { token, signature } = sessionCookieParts(person.cookie);
    // Same length and shape (base64 of an HMAC-SHA256), one character different.
    const flipped = `${signature[0] === "A" ? "B" : "A"}${signature.slice(1)}`;

    const page = await get("/dashboard", withSessionCookie(person.cookie, `${token}.${flipped}`));
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe(signInPage);
    expect(roundTrips(page)).toBe(0);
    // The session itself is untouched: the real cookie still works.
    expect((await get("/dashboard", person.cookie)).status).toBe(200);
  });

  it("refuses a valid session token sent without our signature, or with another token's", async () => {
    const person = await createAccount();
    const other = await createAccount();
    const { token } = sessionCookieParts(person.cookie);
    const { signature: othersSignature } = sessionCookieParts(other.cookie);

    for (const value of [token, `${token}.${othersSignature}`]) {
      const page = await get("/dashboard", withSessionCookie(person.cookie, value));
      expect(page.status, value).toBe(302);
      expect(page.headers.get("Location")).toBe(signInPage);
    }
  });
});

describe("a signed-in page", () => {
  it("costs at most two D1 round trips in all: the guard's batch carries the notification bell", async () => {
    const { admin, member } = await createOrganisationWithMember();
    await giveAchievement(admin.cookie, { userId: member.id, title: "Bell ringer" });
    for (const path of ["/settings", "/passport", "/notifications"]) {
      const response = await get(path, member.cookie);
      expect(response.status, path).toBe(200);
      // The bell is read in the guard's batch, not left out to save the round trip.
      expect(await response.text(), path).toContain('aria-label="Notifications, 1 unread"');
      expect(roundTrips(response), path).toBeLessThanOrEqual(2);
    }
  });
});
