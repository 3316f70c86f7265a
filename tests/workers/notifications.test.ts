import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { formatRelativeTime, unreadBadge } from "#app/utils/relative-time.ts";
import { createDb } from "#db/client.ts";
import { loadNotifications } from "#db/queries/notifications.ts";
import { createOrganisation } from "./factories.ts";
import { cookiesFrom, createAccount, postForm, signIn } from "./helpers.ts";

async function openSocket(cookie: string) {
  const response = await SELF.fetch("http://localhost/api/notifications/socket", {
    headers: { Upgrade: "websocket", Origin: "http://localhost", Cookie: cookie },
  });
  expect(response.status).toBe(101);
  const socket = response.webSocket!;
  socket.accept();
  const received: unknown[] = [];
  socket.addEventListener("message", (event) => received.push(JSON.parse(String(event.data))));
  return { socket, received };
}

const until = async (check: () => boolean, timeoutMs = 3000) => {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

async function insertNotifications(userId: string, count: number, read = false) {
  const now = Date.now();
  const ids = Array.from({ length: count }, () => crypto.randomUUID());
  await env.DB.batch(
    ids.map((id, index) =>
      env.DB.prepare(
        "insert into notifications (id, user_id, title, message, type, read, created_at) values (?, ?, ?, 'm', 'info', ?, ?)",
      ).bind(id, userId, `n${index}`, read ? 1 : 0, now - index * 1000),
    ),
  );
  return ids;
}

const unreadOf = async (userId: string) =>
  (await env.DB.prepare("select count(*) as n from notifications where user_id = ? and read = 0")
    .bind(userId)
    .first<{ n: number }>())!.n;

describe("live notifications", () => {
  it("a new notification reaches both sockets of its user and none of another user's", async () => {
    const { admin, organizationId } = await createOrganisation({ adminName: "Hub Admin", name: "Hub Org" });
    const secondTab = cookiesFrom(await signIn(admin.email));
    const person = await createAccount({ name: "Hub Person" });

    const first = await openSocket(admin.cookie);
    const second = await openSocket(secondTab);
    const stranger = await openSocket(person.cookie);

    await postForm("/dashboard", { intent: "request-join", organizationId }, { cookie: person.cookie });
    await until(() => first.received.length > 0 && second.received.length > 0);
    for (const tab of [first, second]) {
      expect(tab.received).toEqual([
        expect.objectContaining({
          type: "notification",
          notification: expect.objectContaining({ title: "New join request", userId: admin.id }),
        }),
      ]);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stranger.received).toEqual([]);

    // Marking read in one tab tells the others.
    const id = (first.received[0] as { notification: { id: string } }).notification.id;
    await postForm("/notifications", { intent: "mark-read", id }, { cookie: admin.cookie });
    await until(() => second.received.length === 2);
    expect(second.received[1]).toEqual({ type: "read", ids: [id] });
    for (const tab of [first, second, stranger]) tab.socket.close();
  });

  it("refuses an upgrade without a valid session (401) or from another origin (403)", async () => {
    const { cookie } = await createAccount();
    const upgrade = (headers: Record<string, string>) =>
      SELF.fetch("http://localhost/api/notifications/socket", { headers: { Upgrade: "websocket", ...headers } });
    expect((await upgrade({ Origin: "http://localhost" })).status).toBe(401);
    expect((await upgrade({ Origin: "http://localhost", Cookie: "passport.session_token=forged.value" })).status).toBe(
      401,
    );
    expect((await upgrade({ Origin: "https://evil.example", Cookie: cookie })).status).toBe(403);
    expect((await upgrade({ Cookie: cookie })).status).toBe(403);
  });
});

describe("marking read", () => {
  it("mark read and mark all read touch only the caller's rows", async () => {
    const me = await createAccount();
    const other = await createAccount();
    const [mine] = await insertNotifications(me.id, 3);
    const [theirs] = await insertNotifications(other.id, 3);

    await postForm("/notifications", { intent: "mark-read", id: theirs! }, { cookie: me.cookie });
    expect(await unreadOf(other.id)).toBe(3);
    await postForm("/notifications", { intent: "mark-read", id: mine! }, { cookie: me.cookie });
    expect(await unreadOf(me.id)).toBe(2);

    await postForm("/notifications", { intent: "mark-all-read" }, { cookie: me.cookie });
    expect(await unreadOf(me.id)).toBe(0);
    expect(await unreadOf(other.id)).toBe(3);
  });

  it("a signed-out caller marks nothing", async () => {
    const me = await createAccount();
    await insertNotifications(me.id, 2);
    const response = await postForm("/notifications", { intent: "mark-all-read" });
    expect(response.status).toBe(302);
    expect(await unreadOf(me.id)).toBe(2);
  });

  it("without JavaScript, the form goes back to the page", async () => {
    const me = await createAccount();
    await insertNotifications(me.id, 1);
    const response = await postForm(
      "/notifications",
      { intent: "mark-all-read", redirectTo: "/notifications" },
      { cookie: me.cookie },
    );
    expect(response.headers.get("Location")).toBe("/notifications");
  });
});

describe("the list", () => {
  it("holds the latest 20, newest first, and counts every unread one", async () => {
    const me = await createAccount();
    await insertNotifications(me.id, 25);
    const { items, unread } = await loadNotifications(createDb(env.DB), me.id);
    expect(items).toHaveLength(20);
    expect(items[0]!.title).toBe("n0");
    expect(items[19]!.title).toBe("n19");
    expect(unread).toBe(25);
  });

  it("formats times at each boundary as the spec says", () => {
    const now = Date.UTC(2026, 10, 22, 12, 0, 0);
    const ago = (ms: number) => formatRelativeTime(now - ms, now);
    const s = 1000;
    const m = 60 * s;
    const h = 60 * m;
    const d = 24 * h;
    expect(ago(59 * s)).toBe("Just now");
    expect(ago(60 * s)).toBe("1m ago");
    expect(ago(59 * m)).toBe("59m ago");
    expect(ago(60 * m)).toBe("1h ago");
    expect(ago(23 * h)).toBe("23h ago");
    expect(ago(24 * h)).toBe("1d ago");
    expect(ago(6 * d)).toBe("6d ago");
    expect(ago(7 * d)).toBe("15 Nov 2026");
  });

  it("caps the badge at 9+", () => {
    expect([0, 1, 9, 10, 250].map(unreadBadge)).toEqual(["0", "1", "9", "9+", "9+"]);
  });
});
