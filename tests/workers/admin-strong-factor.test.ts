import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { addMember, createOrganisation, giveAchievement, uniqueName, type Account } from "./factories.ts";
import { countRows, get, postForm, toastFrom } from "./helpers.ts";

// Issue 30: an organisation admin can require two-factor (or a passkey) of its admins, and an
// admin without it is asked to set it up before the admin dashboard opens (decision 062). A
// strong factor is `users.two_factor_enabled` or a row in `passkeys`, written here straight into
// D1 (how each is set up has tests of its own).

const OWN_FIRST = "Turn on two-factor authentication or add a passkey for your own account first.";
const explanation = (organizationName: string) =>
  `${organizationName} asks its admins to use two-factor authentication or a passkey. Set one up to open the admin dashboard.`;

// Setting a factor up in Settings leaves the session that did it as having used it (decision 089):
// the person's sessions here are marked so. Sessions that used none: admin-step-up.test.ts.
const usedIt = (userId: string, factor: "code" | "passkey") =>
  env.DB.prepare("update sessions set strong_factor = ? where user_id = ?").bind(factor, userId).run();

const turnOnTwoFactor = async (userId: string) => {
  await env.DB.prepare("update users set two_factor_enabled = 1 where id = ?").bind(userId).run();
  await usedIt(userId, "code");
};

const addPasskey = async (userId: string) => {
  await env.DB.prepare(
    "insert into passkeys (id, name, public_key, user_id, credential_id, counter, device_type, backed_up, created_at) values (?, 'Laptop', 'key', ?, ?, 0, 'singleDevice', 0, ?)",
  )
    .bind(crypto.randomUUID(), userId, crypto.randomUUID(), Date.now())
    .run();
  await usedIt(userId, "passkey");
};

const requireOf = (organizationId: string) =>
  countRows("select require_two_factor as n from organizations where id = ?", organizationId);

const requireTwoFactor = (organizationId: string) =>
  env.DB.prepare("update organizations set require_two_factor = 1 where id = ?").bind(organizationId).run();

/** A second admin of the organisation: a member (by the invite link) given the admin role. */
async function secondAdmin(organizationId: string, name = "Sam Second") {
  const person = await addMember(organizationId, { name });
  await env.DB.prepare(
    "insert into organization_roles (id, user_id, organization_id, role, created_at) values (?, ?, ?, 'admin', 0)",
  )
    .bind(crypto.randomUUID(), person.id, organizationId)
    .run();
  return person;
}

/**
 * An organisation that requires a strong factor of its admins; its founder holds one, its second
 * admin (the one held back) none, and a member to give achievements to.
 */
async function requiringOrganisation() {
  const organisation = await createOrganisation({ name: uniqueName("Strict") });
  await turnOnTwoFactor(organisation.admin.id);
  const held = await secondAdmin(organisation.organizationId);
  const member = await addMember(organisation.organizationId, { name: "Mo Member" });
  await requireTwoFactor(organisation.organizationId);
  return { ...organisation, held, member };
}

const setAdminSignIn = (cookie: string, on: boolean) =>
  postForm(
    "/dashboard/organization",
    { intent: "set-admin-sign-in", ...(on ? { requireTwoFactor: "on" } : {}) },
    { cookie },
  );

/** Where a GET is sent, and the toast it carries. */
async function sentTo(path: string, person: Account) {
  const response = await get(path, person.cookie);
  return { status: response.status, location: response.headers.get("Location"), toast: toastFrom(response) };
}

/** A verified domain of the organisation, whose did-configuration.json an admin downloads. */
async function verifiedDomain(organizationId: string) {
  const id = crypto.randomUUID();
  await env.DB.prepare(
    "insert into organization_domains (id, organization_id, domain, token, status, verified_at, last_checked_at, next_check_at, created_at) values (?, ?, ?, 'token', 'verified', 0, 0, 0, 0)",
  )
    .bind(id, organizationId, `${crypto.randomUUID().slice(0, 8)}.example`)
    .run();
  return id;
}

describe("the Admin sign-in setting", () => {
  it("refuses to turn it on for an admin without a strong factor, and says how to get one", async () => {
    const { admin, organizationId } = await createOrganisation();
    const page = await (await get("/dashboard/organization", admin.cookie)).text();
    expect(page).toContain("Admin sign-in");
    expect(page).toContain("Require two-factor authentication or a passkey for admins");
    expect(page).toContain(OWN_FIRST);
    expect(page).toContain('href="/settings/security#two-factor"');

    const refused = await setAdminSignIn(admin.cookie, true);
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain(OWN_FIRST);
    expect(html).toContain('href="/settings/security#two-factor"');
    expect(await requireOf(organizationId)).toBe(0);
  });

  it.each([
    ["two-factor on", turnOnTwoFactor],
    ["a passkey", addPasskey],
  ])("turns it on for an admin with %s, counts the admins without one, and turns it off", async (_, strong) => {
    const { admin, organizationId } = await createOrganisation();
    await strong(admin.id);
    await secondAdmin(organizationId);
    expect(await (await get("/dashboard/organization", admin.cookie)).text()).toContain(
      "1 admin has no two-factor authentication or passkey yet.",
    );

    const saved = await setAdminSignIn(admin.cookie, true);
    expect(saved.status).toBe(302);
    expect(toastFrom(saved)).toMatchObject({ title: "Admin sign-in saved" });
    expect(await requireOf(organizationId)).toBe(1);
    const page = await (await get("/dashboard/organization", admin.cookie)).text();
    expect(page).toMatch(/<input[^>]*name="requireTwoFactor"[^>]*checked/);
    expect(page).not.toContain(OWN_FIRST);

    expect((await setAdminSignIn(admin.cookie, false)).status).toBe(302);
    expect(await requireOf(organizationId)).toBe(0);
  });

  it("says so when every admin has a strong factor", async () => {
    const { admin } = await createOrganisation();
    await turnOnTwoFactor(admin.id);
    expect(await (await get("/dashboard/organization", admin.cookie)).text()).toContain(
      "Every admin has two-factor authentication or a passkey.",
    );
  });
});

describe("an admin without a strong factor, when the organisation requires one", () => {
  it.each(["/dashboard", "/dashboard/achievements", "/dashboard/organization", "did-configuration"])(
    "is sent from %s to set one up, told why",
    async (path) => {
      const { held, organizationId, organizationName } = await requiringOrganisation();
      const target =
        path === "did-configuration"
          ? `/dashboard/organization/did-configuration/${await verifiedDomain(organizationId)}`
          : path;
      expect(await sentTo(target, held)).toEqual({
        status: 302,
        location: "/settings/security#two-factor",
        toast: { title: "Set up two-factor authentication", description: explanation(organizationName) },
      });
    },
  );

  it("is refused giving an achievement, with why", async () => {
    const { held, member, organizationName } = await requiringOrganisation();
    const { response, achievementId } = await giveAchievement(held.cookie, { userId: member.id, title: "Held" });
    expect(response.status).toBe(403);
    expect(await response.text()).toContain(`>${explanation(organizationName)}</p>`);
    expect(achievementId).toBeNull();
  });

  it.each([
    ["reset the invite link", () => ({ intent: "reset-invite" })],
    ["remove a member", (membershipId: string) => ({ intent: "remove", membershipId })],
    ["subscribe a member", (membershipId: string) => ({ intent: "subscribe", membershipId })],
  ])("is refused when they %s", async (_, fields) => {
    const { held, member, organizationId, organizationName } = await requiringOrganisation();
    const code = await env.DB.prepare("select invite_code as code from organizations where id = ?")
      .bind(organizationId)
      .first<{ code: string }>();
    const response = await postForm("/dashboard", fields(member.membershipId), { cookie: held.cookie });
    expect(response.status).toBe(403);
    expect(await response.text()).toContain(`>${explanation(organizationName)}</p>`);
    expect(await countRows("select count(*) as n from organization_members where id = ?", member.membershipId)).toBe(1);
    expect(
      await countRows(
        "select count(*) as n from organizations where id = ? and invite_code = ?",
        organizationId,
        code!.code,
      ),
    ).toBe(1);
  });

  it("is refused the organisation's own pages' forms: domains and the setting itself", async () => {
    const { held, organizationId } = await requiringOrganisation();
    const forms: Record<string, string>[] = [
      { intent: "add-domain", domain: "held.example" },
      { intent: "set-admin-sign-in" },
    ];
    for (const fields of forms) {
      expect((await postForm("/dashboard/organization", fields, { cookie: held.cookie })).status).toBe(403);
    }
    expect(await requireOf(organizationId)).toBe(1);
    expect(
      await countRows("select count(*) as n from organization_domains where organization_id = ?", organizationId),
    ).toBe(0);
  });

  it("still leaves the organisation", async () => {
    const { held, organizationId } = await requiringOrganisation();
    const left = await postForm("/dashboard", { intent: "leave", organizationId }, { cookie: held.cookie });
    expect(left.status).toBe(302);
    expect(toastFrom(left)).toMatchObject({ title: "Left organisation" });
    expect(
      await countRows(
        "select count(*) as n from organization_members where user_id = ? and organization_id = ?",
        held.id,
        organizationId,
      ),
    ).toBe(0);
  });

  it("still archives their account", async () => {
    const { held } = await requiringOrganisation();
    const archived = await postForm("/settings/danger", { intent: "archive" }, { cookie: held.cookie });
    expect(archived.status).toBe(302);
    expect(toastFrom(archived)).toMatchObject({ title: "Account Archived" });
  });

  it.each([
    ["a passkey", addPasskey],
    ["two-factor on", turnOnTwoFactor],
  ])("passes once they have %s", async (_, strong) => {
    const { held, member } = await requiringOrganisation();
    await strong(held.id);
    const dashboard = await get("/dashboard", held.cookie);
    expect(dashboard.status).toBe(200);
    expect(await dashboard.text()).toContain("Team Members");
    for (const path of ["/dashboard/achievements", "/dashboard/organization"]) {
      expect((await get(path, held.cookie)).status).toBe(200);
    }
    const { response, achievementId } = await giveAchievement(held.cookie, { userId: member.id, title: "Strong" });
    expect(response.status).toBe(302);
    expect(achievementId).not.toBeNull();
  });
});

describe("what the requirement leaves alone", () => {
  it("a member who is not an admin", async () => {
    const { member } = await requiringOrganisation();
    const dashboard = await get("/dashboard", member.cookie);
    expect(dashboard.status).toBe(200);
    expect(await dashboard.text()).not.toContain("Team Members");
    expect((await get("/passport", member.cookie)).status).toBe(200);
  });

  it("the same person as the admin of another organisation that does not require it", async () => {
    const { held, member: strictMember, organizationId: strictId } = await requiringOrganisation();
    // The held admin also runs an organisation of their own, which asks nothing of its admins.
    await env.DB.prepare("update profiles set user_type = 'organization' where id = ?").bind(held.id).run();
    const name = uniqueName("Relaxed");
    const created = await postForm(
      "/dashboard",
      { intent: "create-organization", name, description: "" },
      { cookie: held.cookie },
    );
    expect(created.status).toBe(302);
    const relaxedId = (await env.DB.prepare("select id from organizations where name = ?")
      .bind(name)
      .first<{ id: string }>())!.id;
    const relaxedMember = await addMember(relaxedId, { name: "Rel Member" });

    const switchTo = (organizationId: string) =>
      postForm("/organizations/active", { organizationId }, { cookie: held.cookie });
    expect((await switchTo(relaxedId)).status).toBe(302);
    const dashboard = await get("/dashboard", held.cookie);
    expect(dashboard.status).toBe(200);
    expect(await dashboard.text()).toContain("Team Members");
    expect((await giveAchievement(held.cookie, { userId: relaxedMember.id, title: "Relaxed" })).response.status).toBe(
      302,
    );

    expect((await switchTo(strictId)).status).toBe(302);
    expect((await sentTo("/dashboard", held)).location).toBe("/settings/security#two-factor");
    expect((await giveAchievement(held.cookie, { userId: strictMember.id, title: "Strict" })).response.status).toBe(
      403,
    );
  });
});
