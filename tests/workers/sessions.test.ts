import { env, runDurableObjectAlarm, runInDurableObject, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { deviceLabel, placeOf } from "#app/utils/session-devices.server.ts";
import { writeSession } from "./account-factory.ts";
import {
  cookiesFrom,
  createAccount,
  get,
  ORIGIN,
  PASSWORD,
  passwordResetToken,
  postForm,
  signIn,
  toastFrom,
} from "./helpers.ts";

// Sessions (issue 30, decision 058): a session ends after 7 days unused and 30 days after it
// began; Settings lists a person's sessions and ends one or all but this one; changing or
// resetting the password ends the others; and a session's notification sockets close when it
// ends, however it ends.

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const NEW_PASSWORD = "brand-new-horse-9";
const FIREFOX_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1";

const sessionRow = (id: string) =>
  env.DB.prepare("select expires_at, updated_at, created_at from sessions where id = ?")
    .bind(id)
    .first<{ expires_at: number; updated_at: number; created_at: number }>();

const sessionsOf = async (userId: string) =>
  (
    await env.DB.prepare("select id from sessions where user_id = ? order by id").bind(userId).all<{ id: string }>()
  ).results.map((row) => row.id);

/** The id of the session a cookie carries. */
async function sessionIdOf(cookie: string) {
  const token = decodeURIComponent(/passport\.session_token=([^;]*)/.exec(cookie)![1]!).split(".")[0];
  return (await env.DB.prepare("select id from sessions where token = ?").bind(token).first<{ id: string }>())!.id;
}

const signedOut = (response: Response) =>
  response.status === 302 && response.headers.get("Location")!.startsWith("/auth?redirectTo=");

/** A notification socket opened with the cookie, and how it closed (its code) once it does. */
async function openSocket(cookie: string) {
  const response = await SELF.fetch(`${ORIGIN}/api/notifications/socket`, {
    headers: { Upgrade: "websocket", Origin: ORIGIN, Cookie: cookie },
  });
  expect(response.status).toBe(101);
  const socket = response.webSocket!;
  socket.accept();
  let code: number | null = null;
  const closed = new Promise<number>((resolve) =>
    socket.addEventListener("close", (event) => {
      code = event.code;
      resolve(event.code);
    }),
  );
  return { socket, closed, code: () => code };
}

/** Lets the hub's work after the answer (waitUntil) happen. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe("a session's end", () => {
  it("comes after 7 days unused: a session last seen 7 days and a minute ago is refused and removed", async () => {
    const person = await createAccount();
    const updatedAt = Date.now() - 7 * DAY - MINUTE;
    const idle = await writeSession(person.id, { createdAt: updatedAt - 3 * DAY, updatedAt });

    expect(signedOut(await get("/settings", idle.cookie))).toBe(true);
    expect(await sessionRow(idle.id)).toBeNull();
  });

  it("moves 7 days on when the session is used: one last seen 6 days ago works and is refreshed", async () => {
    const person = await createAccount();
    const idle = await writeSession(person.id, { updatedAt: Date.now() - 6 * DAY });

    const before = Date.now();
    expect((await get("/settings", idle.cookie)).status).toBe(200);
    const row = (await sessionRow(idle.id))!;
    expect(row.updated_at).toBeGreaterThanOrEqual(before - 1000);
    expect(row.expires_at).toBeGreaterThanOrEqual(before + 7 * DAY - 1000);
    expect(row.expires_at).toBeLessThanOrEqual(Date.now() + 7 * DAY);
  });

  it("comes 30 days after signing in, however much the session is used", async () => {
    const person = await createAccount();
    const createdAt = Date.now() - 30 * DAY + HOUR;
    // Last refreshed two hours ago, so this request refreshes it.
    const busy = await writeSession(person.id, { createdAt, updatedAt: Date.now() - 2 * HOUR });
    // Its expiry is capped at the 30th day, written however it was.
    expect((await sessionRow(busy.id))!.expires_at).toBe(createdAt + 30 * DAY);

    expect((await get("/settings", busy.cookie)).status).toBe(200);
    const refreshed = (await sessionRow(busy.id))!;
    expect(refreshed.updated_at).toBeGreaterThan(Date.now() - MINUTE);
    expect(refreshed.expires_at).toBe(createdAt + 30 * DAY);

    // Two hours later (the session began two hours earlier), it is over.
    await env.DB.prepare("update sessions set created_at = ? where id = ?")
      .bind(createdAt - 2 * HOUR, busy.id)
      .run();
    expect(signedOut(await get("/settings", busy.cookie))).toBe(true);
  });

  it("starts 7 days out at a sign-in that keeps the person signed in, one day out at one that does not", async () => {
    const person = await createAccount();
    const plain = (await sessionRow(await sessionIdOf(cookiesFrom(await signIn(person.email)))))!;
    // Without 'Keep me signed in': better-auth's one day, never extended.
    expect(plain.expires_at - plain.created_at).toBeLessThanOrEqual(DAY + 1000);

    const kept = cookiesFrom(
      await postForm("/auth", { intent: "signin", email: person.email, password: PASSWORD, remember: "on" }),
    );
    const keptRow = (await sessionRow(await sessionIdOf(kept)))!;
    expect(Math.abs(keptRow.expires_at - keptRow.created_at - 7 * DAY)).toBeLessThan(1000);
  });

  it("keeps the place the edge says a sign-in came from", async () => {
    const person = await createAccount();
    const response = await SELF.fetch(`${ORIGIN}/auth`, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: ORIGIN,
        Host: new URL(ORIGIN).host,
        "User-Agent": FIREFOX_WINDOWS,
      },
      body: new URLSearchParams({ intent: "signin", email: person.email, password: PASSWORD, remember: "on" }),
      redirect: "manual",
      cf: { city: "Amsterdam", country: "NL" },
    });
    expect(response.status).toBe(302);
    const id = await sessionIdOf(cookiesFrom(response));
    expect(await env.DB.prepare("select place, user_agent from sessions where id = ?").bind(id).first()).toEqual({
      place: "Amsterdam, Netherlands",
      user_agent: FIREFOX_WINDOWS,
    });
  });
});

describe("the Settings list of sessions", () => {
  it("shows the person's live sessions, device, last seen and place, this browser first-class; nobody else's", async () => {
    const person = await createAccount();
    const stranger = await createAccount();
    await writeSession(person.id, {
      updatedAt: Date.now() - 3 * HOUR,
      userAgent: FIREFOX_WINDOWS,
      place: "Amsterdam, Netherlands",
    });
    await writeSession(person.id, { updatedAt: Date.now() - 2 * DAY, userAgent: SAFARI_IPHONE });
    // Ended: not listed.
    await writeSession(person.id, { updatedAt: Date.now() - 8 * DAY, userAgent: "Opera OPR/100 on Linux" });
    await writeSession(stranger.id, { userAgent: "Mozilla/5.0 (Linux; Android 15) Chrome/140.0 Mobile Safari/537.36" });

    const page = await (await get("/settings/sessions", person.cookie)).text();
    expect(page).toContain("Firefox on Windows");
    expect(page).toMatch(/Last seen (<!-- -->)?3h ago(<!-- -->)? · (<!-- -->)?Amsterdam, Netherlands/);
    expect(page).toContain("Safari on iPhone");
    expect(page).toMatch(/Last seen (<!-- -->)?2d ago/);
    expect(page).toContain("This browser");
    expect(page).toContain("Active now");
    expect(page).toContain("Sign out everywhere else");
    expect(page).toMatch(/Showing (<!-- -->)?3(<!-- -->)? of (<!-- -->)?3(<!-- -->)? (<!-- -->)?sessions/);
    expect(page).not.toContain("Opera");
    expect(page).not.toContain("Android");
  });

  it("pages through many sessions, 20 at a time", async () => {
    const person = await createAccount();
    for (let index = 0; index < 21; index++) {
      await writeSession(person.id, { updatedAt: Date.now() - (index + 1) * MINUTE, userAgent: FIREFOX_WINDOWS });
    }
    const first = await (await get("/settings/sessions", person.cookie)).text();
    expect(first).toMatch(/Showing (<!-- -->)?20(<!-- -->)? of (<!-- -->)?22/);
    const next = /href="(\/settings\/sessions\?sessions\.after=[^"]+)"/.exec(first)![1]!.replaceAll("&amp;", "&");
    const second = await (await get(next, person.cookie)).text();
    expect(second).toMatch(/Showing (<!-- -->)?2(<!-- -->)? of (<!-- -->)?22/);
  });

  it("never carries a session's token", async () => {
    const person = await createAccount();
    const other = await writeSession(person.id, { userAgent: FIREFOX_WINDOWS });
    const page = await (await get("/settings/sessions", person.cookie)).text();
    expect(page).toContain(other.id);
    expect(page).not.toContain(other.token);
  });

  it("offers no 'Sign out everywhere else' to a person signed in only here", async () => {
    const person = await createAccount();
    const page = await (await get("/settings/sessions", person.cookie)).text();
    expect(page).toContain("This browser");
    expect(page).not.toContain("Sign out everywhere else");
  });

  it.each([
    [FIREFOX_WINDOWS, "Firefox on Windows"],
    [SAFARI_IPHONE, "Safari on iPhone"],
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36",
      "Chrome on macOS",
    ],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36 Edg/140.0.0.0",
      "Edge on Windows",
    ],
    [
      "Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Mobile Safari/537.36",
      "Chrome on Android",
    ],
    ["Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0", "Firefox on Linux"],
    ["curl/8.5.0", "Unknown device"],
    ["", "Unknown device"],
  ])("names the device of %j as %j", (userAgent, label) => {
    expect(deviceLabel(userAgent)).toBe(label);
  });

  it.each([
    [{ city: "Amsterdam", country: "NL" }, "Amsterdam, Netherlands"],
    [{ country: "DE" }, "Germany"],
    [{ city: "Somewhere", country: "XX" }, "Somewhere"],
    [{ country: "T1" }, null],
    [{}, null],
    [undefined, null],
  ])("names the place of %j as %j", (cf, place) => {
    expect(placeOf(cf)).toBe(place);
  });
});

describe("signing out one session", () => {
  it("ends that session of the person's, and this one goes on", async () => {
    const person = await createAccount();
    const other = await writeSession(person.id, { userAgent: SAFARI_IPHONE });

    const response = await postForm(
      "/settings/sessions",
      { intent: "sign-out-session", sessionId: other.id },
      { cookie: person.cookie },
    );
    expect(response.status).toBe(302);
    expect(toastFrom(response)).toEqual(expect.objectContaining({ title: "Signed out" }));
    expect(await sessionRow(other.id)).toBeNull();
    expect(signedOut(await get("/settings", other.cookie))).toBe(true);
    expect((await get("/settings", person.cookie)).status).toBe(200);
  });

  it("refuses another person's session, or one that does not exist, with a 404 that ends nothing", async () => {
    const person = await createAccount();
    const stranger = await createAccount();
    const theirs = await writeSession(stranger.id);

    for (const sessionId of [theirs.id, crypto.randomUUID()]) {
      const response = await postForm(
        "/settings/sessions",
        { intent: "sign-out-session", sessionId },
        { cookie: person.cookie },
      );
      expect(response.status).toBe(404);
    }
    expect(await sessionRow(theirs.id)).not.toBeNull();
    expect((await get("/settings", theirs.cookie)).status).toBe(200);
    expect((await get("/settings", stranger.cookie)).status).toBe(200);
  });

  it("signs this browser out when it names its own session", async () => {
    const person = await createAccount();
    const own = await sessionIdOf(person.cookie);
    const response = await postForm(
      "/settings/sessions",
      { intent: "sign-out-session", sessionId: own },
      { cookie: person.cookie },
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
    expect(await sessionRow(own)).toBeNull();
  });
});

describe("signing out everywhere else", () => {
  it("ends every other session of the person, and no one else's", async () => {
    const person = await createAccount();
    const stranger = await createAccount();
    const phone = await writeSession(person.id, { userAgent: SAFARI_IPHONE });
    const laptop = await writeSession(person.id, { userAgent: FIREFOX_WINDOWS });

    const response = await postForm(
      "/settings/sessions",
      { intent: "sign-out-other-sessions" },
      { cookie: person.cookie },
    );
    expect(response.status).toBe(302);
    expect(toastFrom(response)).toEqual({
      title: "Signed out everywhere else",
      description: "2 other sessions have ended.",
    });
    expect(await sessionsOf(person.id)).toEqual([await sessionIdOf(person.cookie)]);
    for (const ended of [phone, laptop]) expect(signedOut(await get("/settings", ended.cookie))).toBe(true);
    expect((await get("/settings", person.cookie)).status).toBe(200);
    expect((await get("/settings", stranger.cookie)).status).toBe(200);
  });
});

/** Settings' Change Password, from the browser holding `cookie`. */
const changePassword = (cookie: string) =>
  postForm(
    "/settings/security",
    { intent: "change-password", currentPassword: PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
    { cookie },
  );

describe("a new password", () => {
  it("changed in Settings ends the other sessions; this browser stays signed in", async () => {
    const person = await createAccount();
    const other = await writeSession(person.id);
    const changed = await changePassword(person.cookie);
    expect(changed.status).toBe(302);
    expect(toastFrom(changed)?.title).toBe("Password updated");
    const cookie = cookiesFrom(changed, person.cookie);
    expect((await get("/settings", cookie)).status).toBe(200);
    expect(signedOut(await get("/settings", other.cookie))).toBe(true);
    expect(await sessionsOf(person.id)).toEqual([await sessionIdOf(cookie)]);
  });

  it("set from a reset link ends every session the account had", async () => {
    const person = await createAccount();
    const other = await writeSession(person.id);
    await postForm("/auth/forgot-password", { intent: "forgot-password", email: person.email });
    const token = (await passwordResetToken(person.email))!;
    const reset = await postForm(`/auth/reset-password?token=${encodeURIComponent(token)}`, {
      intent: "reset-password",
      token,
      newPassword: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(reset.status).toBe(302);
    for (const ended of [person.cookie, other.cookie]) expect(signedOut(await get("/settings", ended))).toBe(true);
    // Only the session the reset itself started.
    expect(await sessionsOf(person.id)).toHaveLength(1);
  });
});

describe("notification sockets", () => {
  it("close with the one session signed out from Settings; this browser's stay open", async () => {
    const person = await createAccount();
    const other = await writeSession(person.id);
    const here = await openSocket(person.cookie);
    const there = await openSocket(other.cookie);

    await postForm(
      "/settings/sessions",
      { intent: "sign-out-session", sessionId: other.id },
      { cookie: person.cookie },
    );
    expect(await there.closed).toBe(4001);
    await settle();
    expect(here.code()).toBeNull();
    here.socket.close();
  });

  it("close everywhere else, and only there", async () => {
    const person = await createAccount();
    const stranger = await createAccount();
    const phone = await writeSession(person.id);
    const laptop = await writeSession(person.id);
    const here = await openSocket(person.cookie);
    const elsewhere = [await openSocket(phone.cookie), await openSocket(laptop.cookie)];
    const theirs = await openSocket(stranger.cookie);

    await postForm("/settings/sessions", { intent: "sign-out-other-sessions" }, { cookie: person.cookie });
    expect(await Promise.all(elsewhere.map((tab) => tab.closed))).toEqual([4001, 4001]);
    await settle();
    expect(here.code()).toBeNull();
    expect(theirs.code()).toBeNull();
    for (const tab of [here, theirs]) tab.socket.close();
  });

  it("close when the password changes", async () => {
    const person = await createAccount();
    const other = await writeSession(person.id);
    const tabs = [await openSocket(person.cookie), await openSocket(other.cookie)];
    await changePassword(person.cookie);
    expect(await Promise.all(tabs.map((tab) => tab.closed))).toEqual([4001, 4001]);
  });

  it("close when their session expires or goes unused, found by the hub's alarm; live ones stay", async () => {
    const person = await createAccount();
    const soon = Date.now() + HOUR;
    const ending = await writeSession(person.id, { expiresAt: soon });
    const here = await openSocket(person.cookie);
    const there = await openSocket(ending.cookie);

    const hub = env.PERSON_HUB.get(env.PERSON_HUB.idFromName(person.id));
    // The hub checks by the earliest expiry among its sockets.
    expect(await runInDurableObject(hub, (_, state) => state.storage.getAlarm())).toBe(soon);

    // The session ends unseen (its expiry passes): the alarm finds it and closes its socket.
    await env.DB.prepare("update sessions set expires_at = ? where id = ?")
      .bind(Date.now() - 1000, ending.id)
      .run();
    expect(await runDurableObjectAlarm(hub)).toBe(true);
    expect(await there.closed).toBe(4001);
    await settle();
    expect(here.code()).toBeNull();
    // And it waits for the next: this browser's session's expiry.
    const live = (await sessionRow(await sessionIdOf(person.cookie)))!;
    expect(await runInDurableObject(hub, (_, state) => state.storage.getAlarm())).toBe(live.expires_at);
    here.socket.close();
  });

  it("close when the session is signed out, and only that session's", async () => {
    const person = await createAccount();
    const other = await writeSession(person.id);
    const here = await openSocket(person.cookie);
    const there = await openSocket(other.cookie);
    await postForm("/auth/signout", {}, { cookie: other.cookie });
    expect(await there.closed).toBe(4001);
    await settle();
    expect(here.code()).toBeNull();
    here.socket.close();
  });
});
