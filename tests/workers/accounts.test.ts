import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "#workers/test-app.ts";
import { clientNetwork } from "#app/utils/rate-limit.server.ts";
import {
  confirmationToken,
  cookiesFrom,
  countRows,
  signUpAndConfirm,
  get,
  newClientIp,
  ORIGIN,
  PASSWORD,
  postForm,
  signIn,
  signUp,
  signUpCookie,
  uniqueEmail,
} from "./helpers.ts";

const DAY = 24 * 60 * 60 * 1000;

describe("sign-up validation", () => {
  const cases: [string, Record<string, string>, string][] = [
    ["a malformed e-mail", { email: "not-an-email" }, "Invalid email address"],
    [
      "an e-mail over 255 characters",
      { email: `${"a".repeat(250)}@example.com` },
      "Email must be less than 255 characters",
    ],
    ["a short password", { password: "12345" }, "Password must be at least 6 characters"],
    ["a blank name", { name: "   " }, "Name is required"],
    ["a name over 100 characters", { name: "n".repeat(101) }, "Name must be less than 100 characters"],
    ["a blank organisation name", { intent: "org-signup", organizationName: " " }, "Please enter an organisation name"],
  ];

  it.each(cases)("refuses %s with the spec's message and keeps what was typed", async (_, override, message) => {
    const fields = { intent: "signup", name: "Ada Lovelace", email: uniqueEmail(), password: PASSWORD, ...override };
    // Posted where the form lives, as a browser without JavaScript posts it.
    const response = await postForm(
      fields.intent === "signup" ? "/auth?mode=personal" : "/auth?mode=organisation",
      fields,
    );
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain(message);
    if (!override.name) expect(html).toContain('value="Ada Lovelace"');
    expect(html).not.toContain(`value="${PASSWORD}"`);
    expect(await countRows("select count(*) as n from users")).toBe(0);
  });

  it("refuses a sign-in with a short password before asking the auth library", async () => {
    const response = await signIn("someone@example.com", "123");
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Password must be at least 6 characters");
  });
});

describe("sign-up, confirmation and session", () => {
  it("sends a confirmation mail with text and HTML parts, and confirming signs the user in", async () => {
    const email = uniqueEmail("ada");
    const response = await signUp({ name: "Ada Lovelace", email });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/auth?mode=verify-email&email=${encodeURIComponent(email)}`);

    const mail = await env.DB.prepare('select subject, text, html from dev_mail where "to" = ?')
      .bind(email)
      .first<{ subject: string; text: string; html: string }>();
    expect(mail?.text).toContain("Hi Ada Lovelace");
    expect(mail?.text).toMatch(/http:\/\/localhost\/auth\/confirm\?token=/);
    expect(mail?.html).toContain("/auth/confirm?token=");

    const mailbox = await get(`/dev/mail.json?to=${encodeURIComponent(email)}`);
    const items = (await mailbox.json()) as {
      to: string;
      subject: string;
      text: string;
      html: string;
      createdAt: string;
    }[];
    expect(items).toHaveLength(1);
    expect(Object.keys(items[0]!).sort()).toEqual(["createdAt", "html", "subject", "text", "to"]);

    // Before confirmation there is no way in.
    const early = await signIn(email);
    expect(early.status).toBe(403);

    const confirm = await postForm(
      "/auth/confirm",
      { token: (await confirmationToken(email))! },
      { cookie: signUpCookie(response) },
    );
    expect(confirm.status).toBe(200);
    const cookie = cookiesFrom(confirm);
    expect(cookie).toContain("passport.session_token=");

    const dashboard = await get("/dashboard", cookie);
    expect(dashboard.status).toBe(200);
    expect(await dashboard.text()).toMatch(/Welcome, (<!-- -->)?Ada Lovelace/);
    const profile = await env.DB.prepare(
      "select full_name, user_type from profiles p join users u on u.id = p.id where u.email = ?",
    )
      .bind(email)
      .first();
    expect(profile).toEqual({ full_name: "Ada Lovelace", user_type: "individual" });
  });

  it("sets a session cookie that is HttpOnly and SameSite=Lax, lasting only the browser session unless kept", async () => {
    const { email } = await signUpAndConfirm();
    const plain = await signIn(email);
    const sessionCookie = plain.headers.getSetCookie().find((line) => line.startsWith("passport.session_token="))!;
    expect(sessionCookie).toMatch(/HttpOnly/i);
    expect(sessionCookie).toMatch(/SameSite=Lax/i);
    expect(sessionCookie).not.toMatch(/Max-Age/i);

    const kept = await postForm("/auth", { intent: "signin", email, password: PASSWORD, remember: "on" });
    expect(kept.headers.getSetCookie().find((line) => line.startsWith("passport.session_token="))).toMatch(
      /Max-Age=\d+/i,
    );
    // A new session each time: the session id changes at sign-in.
    expect(cookiesFrom(kept)).not.toBe(cookiesFrom(plain));
  });

  it("an organisation sign-up confirmed twice at once creates one organisation", async () => {
    const email = uniqueEmail("org");
    const signedUp = await signUp({ name: "Dana Wells", email, organizationName: "Wells Engineering" });
    const token = (await confirmationToken(email))!;
    const cookie = signUpCookie(signedUp);
    const [first, second] = await Promise.all([
      postForm("/auth/confirm", { token }, { cookie }),
      postForm("/auth/confirm", { token }, { cookie }),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    await postForm("/auth/confirm", { token }, { cookie });

    const user = await env.DB.prepare("select id from users where email = ?").bind(email).first<{ id: string }>();
    expect(await countRows("select count(*) as n from organizations where name = 'Wells Engineering'")).toBe(1);
    expect(
      await countRows("select count(*) as n from organization_roles where user_id = ? and role = 'admin'", user!.id),
    ).toBe(1);
    expect(
      await countRows(
        "select count(*) as n from organization_members where user_id = ? and status = 'approved'",
        user!.id,
      ),
    ).toBe(1);
    expect(await countRows("select count(*) as n from pending_organization_setups where user_id = ?", user!.id)).toBe(
      0,
    );
    expect(await env.DB.prepare("select user_type from profiles where id = ?").bind(user!.id).first()).toEqual({
      user_type: "organization",
    });
  });

  it("a bad token gets the error state and no session", async () => {
    const response = await postForm("/auth/confirm", { token: "nope.nope.nope" });
    expect(response.status).toBe(400);
    expect(response.headers.getSetCookie()).toEqual([]);
  });
});

describe("no account enumeration", () => {
  it("answers a sign-up for a taken address exactly like one for a new address", async () => {
    const { email } = await signUpAndConfirm({ name: "First Owner" });
    const taken = await signUp({ name: "Someone Else", email });
    const fresh = await signUp({ name: "Someone Else", email: uniqueEmail() });
    expect(taken.status).toBe(fresh.status);
    expect(taken.headers.get("Location")?.replace(/email=[^&]+/, "")).toBe(
      fresh.headers.get("Location")?.replace(/email=[^&]+/, ""),
    );
    // The taken account is untouched, and its owner hears about the attempt.
    expect(await env.DB.prepare("select name from users where email = ?").bind(email).first()).toEqual({
      name: "First Owner",
    });
    expect(
      await countRows("select count(*) as n from dev_mail where \"to\" = ? and subject like '%already have%'", email),
    ).toBe(1);
  });

  it("answers an unknown address exactly like a wrong password", async () => {
    const { email } = await signUpAndConfirm();
    const wrongPassword = await signIn(email, "wrong-password");
    const unknown = await signIn(uniqueEmail("ghost"), "wrong-password");
    expect(wrongPassword.status).toBe(unknown.status);
    const message = (html: string) => /role="alert"[^>]*>([^<]+)</.exec(html)?.[1];
    expect(message(await wrongPassword.text())).toBe(message(await unknown.text()));
  });
});

describe("rate limits", () => {
  it("refuse the 11th sign-in in a minute with 429 and keep the count in D1", async () => {
    const ip = newClientIp();
    const statuses: number[] = [];
    // One client trying many addresses (each address has a limit of its own: throttles.test.ts).
    for (let attempt = 0; attempt < 11; attempt++)
      statuses.push((await signIn(uniqueEmail("nobody"), "wrong-password", ip)).status);
    expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
    const limited = await signIn(uniqueEmail("nobody"), "wrong-password", ip);
    expect(limited.status).toBe(429);
    expect(await limited.text()).toContain("Too many attempts. Please wait a minute and try again.");
    const network = clientNetwork(new Request(ORIGIN, { headers: { "cf-connecting-ip": ip } }));
    expect(await countRows("select count as n from rate_limits where key = ?", `sign-in:${network}`)).toBe(12);
    // Another client is not affected.
    expect((await signIn(uniqueEmail("nobody"), "wrong-password")).status).toBe(401);
  });

  it("leave no way around them: the auth library's JSON sign-in is not served", async () => {
    const response = await worker.fetch(
      new Request(`http://localhost/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: "http://localhost", "cf-connecting-ip": newClientIp() },
        body: JSON.stringify({ email: "nobody@example.com", password: "wrong-password" }),
      }),
      env,
      createExecutionContext(),
    );
    expect(response.status).toBe(404);
  });
});

describe("password change", () => {
  it("with a wrong current password fails and changes nothing", async () => {
    const { email, cookie } = await signUpAndConfirm();
    const response = await postForm(
      "/settings/security",
      {
        intent: "change-password",
        currentPassword: "not-my-password",
        newPassword: "brand-new-1",
        confirmPassword: "brand-new-1",
      },
      { cookie },
    );
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Current password is incorrect");
    expect((await signIn(email, PASSWORD)).status).toBe(302);
  });

  it("refuses a confirmation that does not match", async () => {
    const { cookie } = await signUpAndConfirm();
    const response = await postForm(
      "/settings/security",
      {
        intent: "change-password",
        currentPassword: PASSWORD,
        newPassword: "brand-new-1",
        confirmPassword: "brand-new-2",
      },
      { cookie },
    );
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Passwords don&#x27;t match");
  });

  it("with the right one ends every other session and keeps this one going", async () => {
    const { email, cookie } = await signUpAndConfirm();
    const otherDevice = cookiesFrom(await signIn(email));
    expect((await get("/dashboard", otherDevice)).status).toBe(200);

    const response = await postForm(
      "/settings/security",
      {
        intent: "change-password",
        currentPassword: PASSWORD,
        newPassword: "brand-new-1",
        confirmPassword: "brand-new-1",
      },
      { cookie },
    );
    expect(response.status).toBe(302);
    expect((await get("/dashboard", otherDevice)).status).toBe(302);
    expect((await get("/dashboard", cookiesFrom(response, cookie))).status).toBe(200);
    expect((await signIn(email, PASSWORD)).status).toBe(401);
    expect((await signIn(email, "brand-new-1")).status).toBe(302);
  });
});

describe("sign-out", () => {
  it("ends the session, clears the active organisation and goes home", async () => {
    const { id, cookie } = await signUpAndConfirm({ organizationName: "Signout Org" });
    expect(
      await env.DB.prepare("select active_organization_id as a from profiles where id = ?")
        .bind(id)
        .first<{ a: string | null }>(),
    ).not.toEqual({ a: null });
    const response = await postForm("/auth/signout", {}, { cookie });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
    expect((await get("/dashboard", cookie)).status).toBe(302);
    expect(
      await env.DB.prepare("select active_organization_id as a from profiles where id = ?").bind(id).first(),
    ).toEqual({ a: null });
  });
});

async function giveMembershipAndAchievement(userId: string) {
  const organizationId = crypto.randomUUID();
  await env.DB.batch([
    env.DB.prepare("insert into organizations (id, name, created_at) values (?, 'Acme', 0)").bind(organizationId),
    env.DB.prepare(
      "insert into organization_members (id, user_id, organization_id, status, requested_at, subscription_status) values (?, ?, ?, 'approved', 0, 'inactive')",
    ).bind(crypto.randomUUID(), userId, organizationId),
    env.DB.prepare(
      "insert into organization_roles (id, user_id, organization_id, role, created_at) values (?, ?, ?, 'member', 0)",
    ).bind(crypto.randomUUID(), userId, organizationId),
    env.DB.prepare(
      "insert into achievements (id, user_id, organization_id, created_by, title, date, type, status, is_visible, image_url, created_at) values (?, ?, ?, ?, 'Star', '2024-01-01', 'award', 'accepted', 1, ?, 0)",
    ).bind(crypto.randomUUID(), userId, organizationId, userId, `/media/${organizationId}/photo.jpg`),
    env.DB.prepare(
      "insert into notifications (id, user_id, title, message, created_at) values (?, ?, 'Hi', 'There', 0)",
    ).bind(crypto.randomUUID(), userId),
  ]);
  await env.MEDIA.put(`${organizationId}/photo.jpg`, "jpg");
  await env.MEDIA.put(`avatars/${userId}/avatar.png`, "png");
  return organizationId;
}

describe("archive and reactivation", () => {
  it("archive hides the public passport, removes memberships and ends other sessions", async () => {
    const { id, email, cookie } = await signUpAndConfirm();
    await giveMembershipAndAchievement(id);
    const otherDevice = cookiesFrom(await signIn(email));
    expect((await get(`/passport/${id}`)).status).toBe(200);

    const response = await postForm("/settings/danger", { intent: "archive" }, { cookie });
    expect(response.status).toBe(302);
    expect((await get(`/passport/${id}`)).status).toBe(404);
    expect(await countRows("select count(*) as n from organization_members where user_id = ?", id)).toBe(0);
    expect(await countRows("select count(*) as n from organization_roles where user_id = ?", id)).toBe(0);
    expect((await get("/dashboard", otherDevice)).status).toBe(302);
    // This device may still open Settings to delete everything, and nothing else.
    expect(await (await get("/settings", cookie)).text()).toContain("Account Archived");
    expect((await get("/dashboard", cookie)).status).toBe(302);
  });

  it("signing in within 30 days offers the choice; Reactivate brings the account back, without its memberships", async () => {
    const { id, email, cookie } = await signUpAndConfirm();
    await giveMembershipAndAchievement(id);
    await postForm("/settings/danger", { intent: "archive" }, { cookie });
    await env.DB.prepare("update profiles set deleted_at = ? where id = ?")
      .bind(Date.now() - 29 * DAY, id)
      .run();

    const response = await signIn(email);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/settings");
    const session = cookiesFrom(response);
    const page = await (await get("/settings", session)).text();
    expect(page).toContain("Account Archived");
    expect(page).toContain("Reactivate");
    expect(page).toContain("Permanently Delete All Data");
    // Still archived until the person chooses.
    expect((await get(`/passport/${id}`)).status).toBe(404);

    const reactivated = await postForm("/settings", { intent: "reactivate" }, { cookie: session });
    expect(reactivated.headers.get("Location")).toBe("/dashboard");
    expect(await env.DB.prepare("select deleted_at from profiles where id = ?").bind(id).first()).toEqual({
      deleted_at: null,
    });
    expect((await get(`/passport/${id}`)).status).toBe(200);
    expect(await countRows("select count(*) as n from organization_members where user_id = ?", id)).toBe(0);
  });
});

describe("purge", () => {
  async function everythingOf(userId: string, organizationId: string) {
    const tables = [
      "users where id",
      "profiles where id",
      "sessions where user_id",
      "accounts where user_id",
      "achievements where user_id",
      "notifications where user_id",
      "organization_members where user_id",
      "organization_roles where user_id",
    ];
    let rows = 0;
    for (const table of tables) rows += await countRows(`select count(*) as n from ${table} = ?`, userId);
    const objects =
      (await env.MEDIA.list({ prefix: `avatars/${userId}/` })).objects.length +
      (await env.MEDIA.list({ prefix: `${organizationId}/` })).objects.length;
    return { rows, objects };
  }

  it("deleting all data leaves no row or R2 object of the user and signs them out", async () => {
    const { id, cookie } = await signUpAndConfirm();
    const organizationId = await giveMembershipAndAchievement(id);
    expect((await everythingOf(id, organizationId)).objects).toBe(2);

    // Purge is offered only once archived.
    expect((await postForm("/settings", { intent: "purge" }, { cookie })).status).toBe(302);
    expect(await countRows("select count(*) as n from users where id = ?", id)).toBe(1);

    await postForm("/settings/danger", { intent: "archive" }, { cookie });
    // It asks for the password: a wrong one deletes nothing.
    const wrong = await postForm("/settings", { intent: "purge", password: "wrong-password-1" }, { cookie });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("Password is incorrect");
    expect(await countRows("select count(*) as n from users where id = ?", id)).toBe(1);
    const response = await postForm("/settings", { intent: "purge", password: PASSWORD }, { cookie });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/goodbye");
    expect(await everythingOf(id, organizationId)).toEqual({ rows: 0, objects: 0 });
  });

  it("the daily cron purges an account archived 31 days ago, keeps one archived 29 days ago, and a second run changes nothing", async () => {
    const old = await signUpAndConfirm();
    const recent = await signUpAndConfirm();
    const oldOrg = await giveMembershipAndAchievement(old.id);
    await giveMembershipAndAchievement(recent.id);
    await env.DB.prepare("update profiles set deleted_at = ? where id = ?")
      .bind(Date.now() - 31 * DAY, old.id)
      .run();
    await env.DB.prepare("update profiles set deleted_at = ? where id = ?")
      .bind(Date.now() - 29 * DAY, recent.id)
      .run();

    const run = async () => {
      const ctx = createExecutionContext();
      await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "0 3 * * *" }), env, ctx);
      await waitOnExecutionContext(ctx);
    };
    await run();
    expect(await everythingOf(old.id, oldOrg)).toEqual({ rows: 0, objects: 0 });
    expect(await countRows("select count(*) as n from users where id = ?", recent.id)).toBe(1);

    const before = await countRows("select (select count(*) from users) + (select count(*) from achievements) as n");
    await run();
    expect(await countRows("select (select count(*) from users) + (select count(*) from achievements) as n")).toBe(
      before,
    );
  });
});

describe("settings for an organisation account", () => {
  it("offers the public passport switch and the introduction video, as for every account", async () => {
    const account = await signUpAndConfirm({
      name: "Orla Org",
      organizationName: `Org ${crypto.randomUUID().slice(0, 6)}`,
    });
    const html = await (await get("/settings", account.cookie)).text();
    expect(html).toContain("Public passport");
    expect(html).toContain("Introduction video");
    // And switching it off hides the passport from visitors.
    await postForm(
      "/settings?index",
      { intent: "update-profile", fullName: "Orla Org", bio: "" },
      { cookie: account.cookie },
    );
    expect((await get(`/passport/${account.id}`)).status).toBe(404);
  });
});
