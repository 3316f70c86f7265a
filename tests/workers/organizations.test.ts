import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  cookiesFrom,
  countRows,
  createAccount,
  get,
  inviteCode,
  joinByInviteLink,
  postForm,
  toastFrom,
} from "./helpers.ts";
import * as factories from "./factories.ts";

/** An organisation account with its organisation (created through the product's own forms). */
async function createOrganisation(name?: string) {
  const { admin, organizationId, organizationName } = await factories.createOrganisation({ name });
  return { admin, organizationId, name: organizationName };
}

const membership = (userId: string, organizationId: string) =>
  env.DB.prepare("select id, status from organization_members where user_id = ? and organization_id = ?")
    .bind(userId, organizationId)
    .first<{ id: string; status: string }>();

const snapshot = () =>
  env.DB.prepare(
    "select (select count(*) from organization_members) as members, (select count(*) from organization_roles) as roles, (select count(*) from organizations) as orgs, (select group_concat(status) from organization_members) as statuses",
  ).first();

async function requestToJoin(cookie: string, organizationId: string) {
  return postForm("/dashboard", { intent: "request-join", organizationId }, { cookie });
}

/** An organisation-type account that has no organisation (yet). */
async function organisationAccountWithoutOrganisation() {
  const { admin, organizationId } = await createOrganisation();
  await env.DB.prepare("delete from organizations where id = ?").bind(organizationId).run();
  return admin;
}

describe("creating organisations", () => {
  it("an organisation account creates one and becomes its admin and approved member", async () => {
    const account = await organisationAccountWithoutOrganisation();
    const response = await postForm(
      "/dashboard",
      { intent: "create-organization", name: "  Second Org  ", description: "" },
      { cookie: account.cookie },
    );
    expect(response.status).toBe(302);
    const created = await env.DB.prepare("select id, description from organizations where name = 'Second Org'").first<{
      id: string;
      description: string | null;
    }>();
    expect(created?.description).toBeNull();
    expect(
      await countRows(
        "select count(*) as n from organization_roles where user_id = ? and organization_id = ? and role = 'admin'",
        account.id,
        created!.id,
      ),
    ).toBe(1);
    expect((await membership(account.id, created!.id))?.status).toBe("approved");
    // Its dashboard is now the admin dashboard of the new organisation.
    expect(await (await get("/dashboard", account.cookie)).text()).toContain("Organisation Admin");
  });

  it("makes one organisation of a form sent twice (same submission key), and another of a new form", async () => {
    const account = await organisationAccountWithoutOrganisation();
    const other = await organisationAccountWithoutOrganisation();
    const create = (cookie: string, submissionKey: string) =>
      postForm(
        "/dashboard",
        { intent: "create-organization", name: "Twice Org", description: "", submissionKey },
        { cookie },
      );
    const key = crypto.randomUUID();
    const named = () => countRows("select count(*) as n from organizations where name = 'Twice Org'");
    for (const attempt of [1, 2]) {
      const response = await create(account.cookie, key);
      expect(response.status, `send ${attempt}`).toBe(302);
      expect(toastFrom(response)?.title).toBe("Organisation created");
    }
    expect(await named()).toBe(1);
    expect(await countRows("select count(*) as n from organization_roles where user_id = ?", account.id)).toBe(1);
    // The same key from someone else's form is theirs; a new form (a new key) is a new organisation.
    expect((await create(other.cookie, key)).status).toBe(302);
    expect((await create(account.cookie, crypto.randomUUID())).status).toBe(302);
    expect(await named()).toBe(3);
    // The form as served (without JavaScript, ?create=1 shows it) carries its render's key.
    const html = await (
      await get("/dashboard?create=1", (await organisationAccountWithoutOrganisation()).cookie)
    ).text();
    expect(html).toMatch(/<input type="hidden" name="submissionKey" value="[0-9a-f-]{36}"\/>/);
  });

  it("refuses a blank name with the spec's message, shown by the form it came from", async () => {
    const account = await organisationAccountWithoutOrganisation();
    const before = await snapshot();
    const response = await postForm(
      "/dashboard?create=1",
      { intent: "create-organization", name: "   " },
      { cookie: account.cookie },
    );
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/<p id="[^"]+-error"[^>]*>Please enter an organisation name<\/p>/);
    expect(await snapshot()).toEqual(before);
  });

  it("refuses an individual account, on the server", async () => {
    const person = await createAccount();
    const before = await snapshot();
    const response = await postForm(
      "/dashboard",
      { intent: "create-organization", name: "Sneaky Org" },
      { cookie: person.cookie },
    );
    expect(response.status).toBe(403);
    expect(await snapshot()).toEqual(before);
  });
});

describe("search", () => {
  it("matches part of the name in any case, orders by name, and leaves out the user's own admin organisations", async () => {
    for (const name of ["beta Builders", "Alpha Builders", "Gamma Bakers"]) await createOrganisation(name);
    const person = await createAccount();
    const html = await (await get("/dashboard?q=%20BUILD%20", person.cookie)).text();
    const found = [...html.matchAll(/<h3[^>]*>(?:<svg[\s\S]*?<\/svg>)?([^<]+)<\/h3>/g)].map((match) => match[1]);
    expect(found).toEqual(["Alpha Builders", "beta Builders"]);

    const { admin } = await createOrganisation("Builders Own");
    await postForm("/auth/signout", {}, { cookie: admin.cookie });
    const adminView = await createAccount();
    expect(await (await get("/dashboard?q=Builders", adminView.cookie)).text()).toContain("Builders Own");
  });

  it("treats % and _ as plain characters", async () => {
    await createOrganisation("Percent Org");
    const person = await createAccount();
    expect(await (await get("/dashboard?q=%25", person.cookie)).text()).toContain(
      "No organisations found matching &#x27;%&#x27;",
    );
  });

  it("refuses an empty or over-long term", async () => {
    const person = await createAccount();
    expect(await (await get("/dashboard?q=%20%20", person.cookie)).text()).toContain("Search term cannot be empty");
    expect(await (await get(`/dashboard?q=${"x".repeat(101)}`, person.cookie)).text()).toContain(
      "Search term must be less than 100 characters",
    );
  });
});

describe("join requests and approval", () => {
  it("a request is pending, notifies every admin, and a second request creates nothing", async () => {
    const { admin, organizationId } = await createOrganisation();
    const person = await createAccount({ name: "Pat Request" });
    expect((await requestToJoin(person.cookie, organizationId)).status).toBe(302);
    expect((await requestToJoin(person.cookie, organizationId)).status).toBe(302);
    expect(await countRows("select count(*) as n from organization_members where user_id = ?", person.id)).toBe(1);
    expect((await membership(person.id, organizationId))?.status).toBe("pending");
    expect(
      await countRows(
        "select count(*) as n from notifications where user_id = ? and title = 'New join request'",
        admin.id,
      ),
    ).toBe(1);
  });

  it("the admin approves: approved, a member role, and the member is told", async () => {
    const { admin, organizationId } = await createOrganisation();
    const person = await createAccount();
    await requestToJoin(person.cookie, organizationId);
    const { id } = (await membership(person.id, organizationId))!;
    const response = await postForm("/dashboard", { intent: "approve", membershipId: id }, { cookie: admin.cookie });
    expect(response.status).toBe(302);
    expect((await membership(person.id, organizationId))?.status).toBe("approved");
    expect(
      await countRows("select count(*) as n from organization_roles where user_id = ? and role = 'member'", person.id),
    ).toBe(1);
    expect(
      await countRows(
        "select count(*) as n from notifications where user_id = ? and title = 'Request approved'",
        person.id,
      ),
    ).toBe(1);
    // A second approval changes nothing.
    await postForm("/dashboard", { intent: "approve", membershipId: id }, { cookie: admin.cookie });
    expect(
      await countRows(
        "select count(*) as n from notifications where user_id = ? and title = 'Request approved'",
        person.id,
      ),
    ).toBe(1);
  });

  it("reject deletes the request and tells the requester", async () => {
    const { admin, organizationId } = await createOrganisation();
    const person = await createAccount();
    await requestToJoin(person.cookie, organizationId);
    const { id } = (await membership(person.id, organizationId))!;
    await postForm("/dashboard", { intent: "reject", membershipId: id }, { cookie: admin.cookie });
    expect(await membership(person.id, organizationId)).toBeNull();
    expect(
      await countRows(
        "select count(*) as n from notifications where user_id = ? and title = 'Request declined'",
        person.id,
      ),
    ).toBe(1);
  });

  it.each([
    ["the requester themselves", "self"],
    ["an ordinary member", "member"],
    ["an admin of another organisation", "other-admin"],
    ["a signed-out caller", "anonymous"],
  ])("refuses approve, reject and remove from %s, changing nothing", async (_, who) => {
    const { organizationId } = await createOrganisation();
    const person = await createAccount();
    await requestToJoin(person.cookie, organizationId);
    const { id } = (await membership(person.id, organizationId))!;

    let cookie = "";
    if (who === "self") cookie = person.cookie;
    if (who === "member") {
      const member = await createAccount();
      await env.DB.prepare(
        "insert into organization_members (id, user_id, organization_id, status, requested_at, subscription_status) values (?, ?, ?, 'approved', 0, 'inactive')",
      )
        .bind(crypto.randomUUID(), member.id, organizationId)
        .run();
      cookie = member.cookie;
    }
    if (who === "other-admin") cookie = (await createOrganisation()).admin.cookie;

    const before = await snapshot();
    for (const intent of ["approve", "reject", "remove"]) {
      const response = await postForm("/dashboard", { intent, membershipId: id }, { cookie });
      expect([302, 403], intent).toContain(response.status);
      if (who === "anonymous") expect(response.headers.get("Location")).toMatch(/^\/auth\?redirectTo=/);
      else expect(response.status, intent).toBe(403);
    }
    expect(await snapshot()).toEqual(before);
  });

  it("answers an unknown or malformed membership id without touching anything", async () => {
    const { admin } = await createOrganisation();
    expect(
      (await postForm("/dashboard", { intent: "approve", membershipId: crypto.randomUUID() }, { cookie: admin.cookie }))
        .status,
    ).toBe(404);
    expect(
      (await postForm("/dashboard", { intent: "approve", membershipId: "not-a-uuid" }, { cookie: admin.cookie }))
        .status,
    ).toBe(400);
  });
});

describe("remove, leave and the last admin", () => {
  it("an admin removes a member; the member is told", async () => {
    const { admin, organizationId } = await createOrganisation();
    const person = await createAccount();
    await requestToJoin(person.cookie, organizationId);
    const { id } = (await membership(person.id, organizationId))!;
    await postForm("/dashboard", { intent: "approve", membershipId: id }, { cookie: admin.cookie });
    await postForm("/dashboard", { intent: "remove", membershipId: id }, { cookie: admin.cookie });
    expect(await membership(person.id, organizationId)).toBeNull();
    expect(
      await countRows(
        "select count(*) as n from organization_roles where user_id = ? and organization_id = ?",
        person.id,
        organizationId,
      ),
    ).toBe(0);
    expect(
      await countRows(
        "select count(*) as n from notifications where user_id = ? and title = 'Removed from organisation'",
        person.id,
      ),
    ).toBe(1);
  });

  it("the last admin can be neither removed nor leave", async () => {
    const { admin, organizationId } = await createOrganisation();
    const own = (await membership(admin.id, organizationId))!;
    // Refused on the same page (no redirect), the reason in its toast.
    const removed = await postForm("/dashboard", { intent: "remove", membershipId: own.id }, { cookie: admin.cookie });
    expect(removed.status).toBe(400);
    expect(await removed.text()).toContain("An organisation needs at least one admin");
    const left = await postForm("/dashboard", { intent: "leave", organizationId }, { cookie: admin.cookie });
    expect(left.status).toBe(400);
    expect(await left.text()).toContain("An organisation needs at least one admin");
    expect((await membership(admin.id, organizationId))?.status).toBe("approved");
  });

  it("leaving deletes only the caller's own membership", async () => {
    const { admin, organizationId } = await createOrganisation();
    const person = await createAccount();
    await requestToJoin(person.cookie, organizationId);
    await postForm(
      "/dashboard",
      { intent: "approve", membershipId: (await membership(person.id, organizationId))!.id },
      { cookie: admin.cookie },
    );
    const response = await postForm("/dashboard", { intent: "leave", organizationId }, { cookie: person.cookie });
    expect(response.status).toBe(302);
    expect(await membership(person.id, organizationId)).toBeNull();
    expect(await membership(admin.id, organizationId)).not.toBeNull();
  });

  it("leaving an organisation the caller is not in is refused", async () => {
    const { organizationId } = await createOrganisation();
    const person = await createAccount();
    expect((await postForm("/dashboard", { intent: "leave", organizationId }, { cookie: person.cookie })).status).toBe(
      404,
    );
  });
});

describe("invite link", () => {
  const dashboardWith = (cookie: string, response: Response) => get("/dashboard", cookiesFrom(response, cookie));

  it("with the code, joins at once with an approved membership and a member role, and twice creates nothing", async () => {
    const { organizationId } = await createOrganisation();
    const person = await createAccount();
    const response = await joinByInviteLink(organizationId, person.cookie);
    expect(response.status).toBe(200);
    expect((await membership(person.id, organizationId))?.status).toBe("approved");
    expect(
      await countRows("select count(*) as n from organization_roles where user_id = ? and role = 'member'", person.id),
    ).toBe(1);

    const again = await joinByInviteLink(organizationId, person.cookie);
    expect(again.status).toBe(302);
    expect(await countRows("select count(*) as n from organization_members where user_id = ?", person.id)).toBe(1);
    expect(await (await dashboardWith(person.cookie, again)).text()).toContain("Already a member");
  });

  it("the admin's link carries the organisation's code", async () => {
    const { admin, organizationId } = await createOrganisation();
    const html = await (await get("/dashboard", admin.cookie)).text();
    expect(html).toContain(`/join/${organizationId}?code=${await inviteCode(organizationId)}`);
  });

  it("without a code, or with a wrong one, only sends a pending request to the admins", async () => {
    for (const fields of [{}, { code: "wrong-code" }, { code: "" }] as Record<string, string>[]) {
      const { organizationId } = await createOrganisation();
      const person = await createAccount();
      const response = await postForm(`/join/${organizationId}`, fields, { cookie: person.cookie });
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/dashboard");
      expect(toastFrom(response)?.title).toBe("Request sent");
      expect((await membership(person.id, organizationId))?.status).toBe("pending");
      expect(
        await countRows(
          "select count(*) as n from organization_roles where user_id = ? and role = 'member'",
          person.id,
        ),
      ).toBe(0);
    }
  });

  it("the page offers Request to Join without a valid code, and joins only with it", async () => {
    const { organizationId, name } = await createOrganisation();
    const person = await createAccount();
    const bare = await (await get(`/join/${organizationId}`, person.cookie)).text();
    expect(bare).toContain(`Join ${name}`);
    expect(bare).toContain(`aria-label="Request to Join ${name}"`);
    expect(bare).not.toContain('name="code"');
    const wrong = await (await get(`/join/${organizationId}?code=nope`, person.cookie)).text();
    expect(wrong).toContain("This invite link is no longer valid.");
    const code = await inviteCode(organizationId);
    const valid = await (await get(`/join/${organizationId}?code=${code}`, person.cookie)).text();
    expect(valid).toContain("Joining organisation...");
    expect(valid).toContain(`name="code" value="${code}"`);
    // Opening the page changed nothing.
    expect(await membership(person.id, organizationId)).toBeNull();
  });

  it("'Reset link' issues a new code and the old link stops admitting anyone", async () => {
    const { admin, organizationId } = await createOrganisation();
    const oldCode = await inviteCode(organizationId);
    const reset = await postForm("/dashboard", { intent: "reset-invite" }, { cookie: admin.cookie });
    expect(reset.status).toBe(302);
    expect(toastFrom(reset)?.title).toBe("Invite link reset");
    const newCode = await inviteCode(organizationId);
    expect(newCode).not.toBe(oldCode);
    expect(newCode).toMatch(/^[A-Za-z0-9_-]{22}$/);

    const late = await createAccount();
    expect((await postForm(`/join/${organizationId}`, { code: oldCode }, { cookie: late.cookie })).status).toBe(302);
    expect((await membership(late.id, organizationId))?.status).toBe("pending");
    const invited = await createAccount();
    expect((await postForm(`/join/${organizationId}`, { code: newCode }, { cookie: invited.cookie })).status).toBe(200);
    expect((await membership(invited.id, organizationId))?.status).toBe("approved");
  });

  it("only an admin resets the link, and only their active organisation's", async () => {
    const { organizationId } = await createOrganisation();
    const code = await inviteCode(organizationId);
    const member = await createAccount();
    await joinByInviteLink(organizationId, member.cookie);
    expect((await postForm("/dashboard", { intent: "reset-invite" }, { cookie: member.cookie })).status).toBe(403);
    const other = await createOrganisation();
    expect((await postForm("/dashboard", { intent: "reset-invite" }, { cookie: other.admin.cookie })).status).toBe(302);
    expect(await inviteCode(organizationId)).toBe(code);
  });

  it("a removed member, or a person whose request was rejected, cannot come back with the old code", async () => {
    const { admin, organizationId } = await createOrganisation();
    const code = await inviteCode(organizationId);
    const removed = await createAccount();
    await joinByInviteLink(organizationId, removed.cookie);
    const rejected = await createAccount();
    await requestToJoin(rejected.cookie, organizationId);
    for (const [person, intent] of [
      [removed, "remove"],
      [rejected, "reject"],
    ] as const) {
      const { id } = (await membership(person.id, organizationId))!;
      expect((await postForm("/dashboard", { intent, membershipId: id }, { cookie: admin.cookie })).status).toBe(302);
      expect(await membership(person.id, organizationId)).toBeNull();

      const page = await (await get(`/join/${organizationId}?code=${code}`, person.cookie)).text();
      expect(page).toContain("This invite link is no longer valid.");
      const back = await postForm(`/join/${organizationId}`, { code }, { cookie: person.cookie });
      expect(back.status).toBe(302);
      expect((await membership(person.id, organizationId))?.status).toBe("pending");
    }
    // Someone else still joins with the same code.
    const newcomer = await createAccount();
    expect((await joinByInviteLink(organizationId, newcomer.cookie)).status).toBe(200);

    // Approving the new request lets the removed member in again; later removal records it anew.
    const { id } = (await membership(removed.id, organizationId))!;
    await postForm("/dashboard", { intent: "approve", membershipId: id }, { cookie: admin.cookie });
    expect((await membership(removed.id, organizationId))?.status).toBe("approved");
    expect(
      await countRows(
        "select count(*) as n from membership_removals where user_id = ? and organization_id = ?",
        removed.id,
        organizationId,
      ),
    ).toBe(0);
  });

  it("a pending request stays pending", async () => {
    const { organizationId } = await createOrganisation();
    const person = await createAccount();
    await requestToJoin(person.cookie, organizationId);
    const response = await joinByInviteLink(organizationId, person.cookie);
    expect(response.status).toBe(302);
    expect((await membership(person.id, organizationId))?.status).toBe("pending");
  });

  it("an unknown or malformed id shows 'Organisation not found' with 404", async () => {
    for (const id of [crypto.randomUUID(), "not-an-id"]) {
      const response = await get(`/join/${id}`);
      expect(response.status).toBe(404);
      expect(await response.text()).toContain("Organisation not found");
    }
  });

  it("asks a signed-out visitor to sign in and come back to the same link, code included", async () => {
    const { organizationId } = await createOrganisation();
    const code = await inviteCode(organizationId);
    const html = await (await get(`/join/${organizationId}?code=${code}`)).text();
    expect(html).toContain("Sign in required");
    expect(html).toContain(`/auth?redirectTo=${encodeURIComponent(`/join/${organizationId}?code=${code}`)}`);
    const bare = await (await get(`/join/${organizationId}`)).text();
    expect(bare).toContain(`/auth?redirectTo=${encodeURIComponent(`/join/${organizationId}`)}`);
  });
});

describe("active organisation", () => {
  it("switches only to an organisation the user belongs to", async () => {
    const { organizationId } = await createOrganisation();
    const person = await createAccount();
    const before = await env.DB.prepare("select active_organization_id as a from profiles where id = ?")
      .bind(person.id)
      .first();
    const response = await postForm("/organizations/active", { organizationId }, { cookie: person.cookie });
    expect(response.status).toBe(403);
    expect(
      await env.DB.prepare("select active_organization_id as a from profiles where id = ?").bind(person.id).first(),
    ).toEqual(before);
  });
});
