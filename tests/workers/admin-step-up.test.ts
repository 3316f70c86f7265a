import { env } from "cloudflare:test";
import * as OTPAuth from "otpauth";
import { afterEach, describe, expect, it, vi } from "vitest";
import { writeSession } from "./account-factory.ts";
import { addMember, createOrganisation, giveAchievement, uniqueName } from "./factories.ts";
import {
  cookiesFrom,
  countRows,
  createAccount,
  get,
  newClientNetwork,
  PASSWORD,
  postForm,
  toastFrom,
} from "./helpers.ts";
import { addPasskey, signInOptions, type Authenticator } from "./passkey-ceremonies.ts";
import { softwarePasskey } from "./software-passkey.ts";

// Issue 43, the outside review's Medium 3 (decision 089): where an organisation requires a strong
// factor of its admins, it is asked of the session, not only of the account. An admin who holds a
// passkey or two-factor but signed in with the password alone is asked to confirm it (the step-up
// page) before the admin pages and actions open, and goes back where they were going after.

const CONFIRM = (organizationName: string) =>
  `${organizationName} asks its admins to confirm their sign-in with a passkey or two-factor authentication. Confirm yours to open the admin dashboard.`;
const CONFIRM_FIRST =
  "You signed in with your password only. Confirm it&#x27;s you with your passkey or authenticator app first.";
const OTHER_ACCOUNTS_PASSKEY = "That passkey belongs to another account. Use one of your own.";

afterEach(() => {
  vi.restoreAllMocks();
});

/** The security events the Worker (in this isolate) logs from now on, by name. */
function watchSecurityEvents() {
  const lines: string[] = [];
  vi.spyOn(console, "warn").mockImplementation((...args: unknown[]) => {
    lines.push(args.map(String).join(" "));
  });
  return (name: string) =>
    lines
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { event?: string; reason?: string })
      .filter((entry) => entry.event === name);
}

/** The step-up page's 'Use your passkey', as its script does it: a challenge, then the signed answer. */
async function stepUpWithPasskey(cookie: string, authenticator: Authenticator, redirectTo = "/dashboard") {
  const { options, cookie: withChallenge } = await signInOptions(cookie);
  return postForm(
    "/auth/step-up",
    { intent: "confirm-passkey", response: await authenticator.sign(options), redirectTo },
    { cookie: withChallenge, ip: newClientNetwork() },
  );
}

/**
 * An organisation that requires a strong factor, whose admin added a passkey (the software one)
 * from Settings, and a session of the admin's that the password alone started.
 */
async function adminWithOwnPasskey() {
  const organisation = await createOrganisation({ name: uniqueName("Strict") });
  const authenticator = await softwarePasskey();
  expect((await addPasskey(organisation.admin, authenticator)).status).toBe(302);
  const member = await addMember(organisation.organizationId, { name: "Mo Member" });
  await requireTwoFactor(organisation.organizationId);
  const { cookie } = await writeSession(organisation.admin.id);
  return { ...organisation, member, authenticator, cookie };
}

const addPasskeyRow = (userId: string) =>
  env.DB.prepare(
    "insert into passkeys (id, name, public_key, user_id, credential_id, counter, device_type, backed_up, created_at) values (?, 'Laptop', 'key', ?, ?, 0, 'singleDevice', 0, ?)",
  )
    .bind(crypto.randomUUID(), userId, crypto.randomUUID(), Date.now())
    .run();

const requireTwoFactor = (organizationId: string) =>
  env.DB.prepare("update organizations set require_two_factor = 1 where id = ?").bind(organizationId).run();

const sessionOf = (cookie: string) => {
  const token = decodeURIComponent(/passport\.session_token=([^;.]+)/.exec(cookie)![1]!);
  return env.DB.prepare("select sign_in_method as method, strong_factor as factor from sessions where token = ?")
    .bind(token)
    .first<{ method: string | null; factor: string | null }>();
};

/** A browser signing in with the password through the sign-in form: its cookies. */
async function signInWithPassword(email: string) {
  const response = await postForm("/auth", { intent: "signin", email, password: PASSWORD });
  expect(response.status).toBe(302);
  return cookiesFrom(response);
}

const codeFrom = (key: string, steps = 0) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(key), digits: 6, period: 30 }).generate({
    timestamp: Date.now() + steps * 30_000,
  });

/** Two-factor turned on through Settings: the key its authenticator app holds. */
async function turnOnTwoFactorInSettings(cookie: string) {
  expect(
    (await postForm("/settings/security", { intent: "enable-two-factor", password: PASSWORD }, { cookie })).status,
  ).toBe(302);
  const page = await (await get("/settings/security", cookie)).text();
  const key = /data-testid="two-factor-key"[^>]*>([A-Z2-7 ]+)</.exec(page)![1]!.replace(/ /g, "");
  const confirmed = await postForm(
    "/settings/security",
    { intent: "confirm-two-factor", code: codeFrom(key) },
    { cookie },
  );
  expect(confirmed.status).toBe(200);
  return key;
}

/** An organisation that requires a strong factor, its admin holding a passkey but no authenticator app. */
async function adminWithPasskeyOnly() {
  const organisation = await createOrganisation({ name: uniqueName("Strict") });
  await addPasskeyRow(organisation.admin.id);
  const member = await addMember(organisation.organizationId, { name: "Mo Member" });
  await requireTwoFactor(organisation.organizationId);
  return { ...organisation, member };
}

describe("an admin who signed in with the password alone, when the organisation requires a strong factor", () => {
  it.each(["/dashboard", "/dashboard/achievements", "/dashboard/organization?tab=1"])(
    "holding a passkey, is sent from %s to confirm it, and the page says why",
    async (path) => {
      const { admin, organizationName } = await adminWithPasskeyOnly();
      const browser = await signInWithPassword(admin.email);
      expect(await sessionOf(browser)).toEqual({ method: "password", factor: null });
      const sent = await get(path, browser);
      expect(sent.status).toBe(302);
      expect(sent.headers.get("Location")).toBe(`/auth/step-up?redirectTo=${encodeURIComponent(path)}`);

      const page = await get(sent.headers.get("Location")!, browser);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain("<title>Confirm it&#x27;s you");
      expect(html).toContain(CONFIRM(organizationName).replaceAll("'", "&#x27;"));
      expect(html).toContain("Use your passkey");
      // No authenticator app: no code is asked for.
      expect(html).not.toContain('name="code"');
    },
  );

  it("is refused giving an achievement and the other admin actions, with why, and nothing is written", async () => {
    const { admin, member, organizationId, organizationName } = await adminWithPasskeyOnly();
    const browser = await signInWithPassword(admin.email);
    const { response, achievementId } = await giveAchievement(browser, { userId: member.id, title: "Weak" });
    expect(response.status).toBe(403);
    expect(await response.text()).toContain(CONFIRM(organizationName).replaceAll("'", "&#x27;"));
    expect(achievementId).toBeNull();
    const dashboardForms: Record<string, string>[] = [
      { intent: "remove", membershipId: member.membershipId },
      { intent: "reset-invite" },
    ];
    for (const fields of dashboardForms) {
      expect((await postForm("/dashboard", fields, { cookie: browser })).status).toBe(403);
    }
    for (const fields of [{ intent: "set-admin-sign-in" }, { intent: "add-domain", domain: "weak.example" }] as Record<
      string,
      string
    >[]) {
      expect((await postForm("/dashboard/organization", fields, { cookie: browser })).status).toBe(403);
    }
    expect(await countRows("select count(*) as n from organization_members where id = ?", member.membershipId)).toBe(1);
    expect(await countRows("select require_two_factor as n from organizations where id = ?", organizationId)).toBe(1);
  });

  it("confirms with a code from the authenticator app, goes back where it was going, and the admin pages open", async () => {
    const { admin, member, organizationId } = await createOrganisation().then(async (organisation) => ({
      ...organisation,
      member: await addMember(organisation.organizationId),
    }));
    const key = await turnOnTwoFactorInSettings(admin.cookie);
    await requireTwoFactor(organizationId);
    const events = watchSecurityEvents();
    // A session the password alone started (from before sessions recorded it, or a trusted browser).
    const { cookie } = await writeSession(admin.id);
    expect((await get("/dashboard", cookie)).headers.get("Location")).toBe("/auth/step-up?redirectTo=%2Fdashboard");
    const page = await (await get("/auth/step-up?redirectTo=%2Fdashboard", cookie)).text();
    expect(page).toContain('name="code"');
    expect(page).not.toContain("Use your passkey");

    const wrong = String((Number(codeFrom(key, 1)) + 1) % 1_000_000).padStart(6, "0");
    const refused = await postForm(
      "/auth/step-up",
      { intent: "confirm-code", code: wrong, redirectTo: "/dashboard" },
      { cookie, ip: newClientNetwork() },
    );
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("That code is not right");
    expect(await sessionOf(cookie)).toEqual({ method: null, factor: null });
    expect(events("auth.failed").map((event) => event.reason)).toEqual(["wrong two-factor code at step-up"]);

    const confirmed = await postForm(
      "/auth/step-up",
      { intent: "confirm-code", code: codeFrom(key, 1), redirectTo: "/dashboard" },
      { cookie, ip: newClientNetwork() },
    );
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("Location")).toBe("/dashboard");
    expect(toastFrom(confirmed)).toMatchObject({ title: "Sign-in confirmed" });
    expect(await sessionOf(cookie)).toEqual({ method: null, factor: "code" });
    const dashboard = await get("/dashboard", cookie);
    expect(dashboard.status).toBe(200);
    expect(await dashboard.text()).toContain("Team Members");
    expect((await giveAchievement(cookie, { userId: member.id, title: "Strong" })).response.status).toBe(302);
    // Confirmed: the step-up page sends it straight on.
    expect((await get("/auth/step-up?redirectTo=%2Fdashboard", cookie)).headers.get("Location")).toBe("/dashboard");
  });

  it("confirms with the admin's own passkey: the session is marked, and the admin pages open", async () => {
    const { authenticator, cookie, member } = await adminWithOwnPasskey();
    expect((await get("/dashboard", cookie)).headers.get("Location")).toBe("/auth/step-up?redirectTo=%2Fdashboard");

    const confirmed = await stepUpWithPasskey(cookie, authenticator);
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("Location")).toBe("/dashboard");
    expect(toastFrom(confirmed)).toMatchObject({ title: "Sign-in confirmed" });
    expect(await sessionOf(cookie)).toEqual({ method: null, factor: "passkey" });
    const dashboard = await get("/dashboard", cookie);
    expect(dashboard.status).toBe(200);
    expect(await dashboard.text()).toContain("Team Members");
    expect((await giveAchievement(cookie, { userId: member.id, title: "Strong" })).response.status).toBe(302);
  });

  it("refuses another account's passkey, marks nothing, and leaves no session of the other account open", async () => {
    const { admin, cookie } = await adminWithOwnPasskey();
    const other = await createAccount();
    const othersPasskey = await softwarePasskey();
    expect((await addPasskey(other, othersPasskey)).status).toBe(302);
    const othersSessions = await countRows("select count(*) as n from sessions where user_id = ?", other.id);
    const events = watchSecurityEvents();

    const refused = await stepUpWithPasskey(cookie, othersPasskey);
    expect(refused.status).toBe(401);
    expect(await refused.text()).toContain(OTHER_ACCOUNTS_PASSKEY);
    expect(await sessionOf(cookie)).toEqual({ method: null, factor: null });
    expect(await countRows("select count(*) as n from sessions where user_id = ?", other.id)).toBe(othersSessions);
    expect(events("auth.failed")).toEqual([
      expect.objectContaining({ reason: "step-up with another account's passkey", userId: admin.id }),
    ]);
    expect((await get("/dashboard", cookie)).headers.get("Location")).toBe("/auth/step-up?redirectTo=%2Fdashboard");
  });

  it("is not a way in for anyone else: signed out it asks for sign-in, and a redirect elsewhere stays on this site", async () => {
    expect((await get("/auth/step-up")).headers.get("Location")).toBe("/auth?redirectTo=%2Fauth%2Fstep-up");
    const { admin } = await adminWithPasskeyOnly();
    const browser = await signInWithPassword(admin.email);
    const page = await (await get("/auth/step-up?redirectTo=https%3A%2F%2Fevil.example%2F", browser)).text();
    expect(page).toContain('name="redirectTo" value="/dashboard"');
  });
});

describe("a session signed in with the password alone cannot add a factor of its own", () => {
  it("to an account that holds a passkey: no two-factor, no passkey, no new recovery codes", async () => {
    const { admin } = await adminWithPasskeyOnly();
    const browser = await signInWithPassword(admin.email);
    for (const intent of ["enable-two-factor", "passkey-options"]) {
      const refused = await postForm("/settings/security", { intent, password: PASSWORD }, { cookie: browser });
      expect(refused.status).toBe(403);
      const html = await refused.text();
      expect(html).toContain(CONFIRM_FIRST);
      // Where to do that, and back to Settings after.
      expect(html).toContain('href="/auth/step-up?redirectTo=%2Fsettings%2Fsecurity"');
    }
    expect(await countRows("select count(*) as n from two_factors where user_id = ?", admin.id)).toBe(0);
  });
});

describe("what each sign-in records", () => {
  it("a password sign-in used no strong factor; setting up the account's first factor counts as using it", async () => {
    const { admin, organizationId } = await createOrganisation();
    const browser = await signInWithPassword(admin.email);
    expect(await sessionOf(browser)).toEqual({ method: "password", factor: null });
    await turnOnTwoFactorInSettings(browser);
    await requireTwoFactor(organizationId);
    // Turning it on rotated the session: the new cookie's session used the code.
    const sessions = await env.DB.prepare(
      "select sign_in_method as method, strong_factor as factor from sessions where user_id = ?",
    )
      .bind(admin.id)
      .all<{ method: string | null; factor: string | null }>();
    expect(sessions.results).toEqual([{ method: "password", factor: "code" }]);
  });
});
