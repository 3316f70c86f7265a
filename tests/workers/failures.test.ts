import { env, SELF } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { expectConsoleError } from "./console-errors.ts";
import {
  countRows,
  createAccount,
  get,
  mp4Bytes,
  ORIGIN,
  PASSWORD,
  PNG_BYTES,
  postForm,
  postMultipart,
  toastFrom,
  joinByInviteLink,
} from "./helpers.ts";
import { createOrganisation, createOrganisationWithMember, giveAchievement } from "./factories.ts";
import { today } from "#tests/today.ts";

// Every failure speaks the spec's catalogue (section 8). Each test makes the failure really happen
// in D1 (a trigger that aborts the write, a column or table gone, a row deleted between the page
// and the submit) and reads the page a browser without JavaScript gets back: the titled toast in
// its status region, the typed input kept, never the error page.

/** The toast a page was rendered with (the status region the Toaster renders without JavaScript). */
async function pageToast(response: Response) {
  const html = await response.text();
  const match = /<div role="status"[^>]*><p[^>]*>([^<]*)<\/p>(?:<p[^>]*>([^<]*)<\/p>)?/.exec(html);
  return { title: match?.[1] ?? null, description: match?.[2] ?? null, html };
}

/** The Add Achievement form for oneself, as the browser posts it, with a picture attached. */
function selfAchievementForm(title: string) {
  const form = new FormData();
  for (const [name, value] of Object.entries({
    formId: "self",
    intent: "add-self-achievement",
    title,
    company: "Studio",
    date: today(),
    type: "award",
  }))
    form.set(name, value);
  form.set("media", new File([PNG_BYTES], "p.png", { type: "image/png" }));
  return form;
}

/**
 * Uploads an avatar from Settings, then an intro video from the page `videoFrom`, through the
 * profile media form as a browser posts it (each form names the page to go back to).
 */
async function uploadAvatarAndVideo(cookie: string, { videoFrom }: { videoFrom: string }) {
  const avatar = new FormData();
  avatar.set("redirectTo", "/settings");
  avatar.set("avatar", new File([PNG_BYTES], "me.png", { type: "image/png" }));
  avatar.set("intent", "upload-avatar");
  const avatarResponse = await postMultipart("/profile/media", avatar, { cookie });
  const video = new FormData();
  video.set("redirectTo", videoFrom);
  video.set("introVideo", new File([mp4Bytes({ seconds: 5 })], "intro.mp4", { type: "video/mp4" }));
  video.set("intent", "upload-intro-video");
  const videoResponse = await postMultipart("/profile/media", video, { cookie });
  return { avatarResponse, videoResponse };
}

const forced: string[] = [];
/** Makes every `operation` on `table` fail, as a database error would. */
async function failOn(table: string, operation: "INSERT" | "UPDATE" | "DELETE") {
  const name = `forced_${table}_${operation}`.toLowerCase();
  forced.push(name);
  await env.DB.prepare(
    `CREATE TRIGGER ${name} BEFORE ${operation} ON ${table} BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
  ).run();
}
afterEach(async () => {
  for (const name of forced.splice(0)) await env.DB.prepare(`DROP TRIGGER IF EXISTS ${name}`).run();
});

/**
 * Makes R2 refuse every write, as an outage would, while the body is still being read. R2 has
 * no trigger to abort with, so its binding (the one the app is given too) throws for this test.
 */
function failStorage() {
  const bucket = env.MEDIA as unknown as Record<string, unknown>;
  const originals = { put: bucket.put, createMultipartUpload: bucket.createMultipartUpload };
  const refuse = () => Promise.reject(new Error("R2 put: internal error (forced failure)"));
  Object.assign(bucket, { put: refuse, createMultipartUpload: refuse });
  restoreStorage = () => Object.assign(bucket, originals);
}
let restoreStorage = () => {};
afterEach(() => {
  restoreStorage();
  restoreStorage = () => {};
});

/**
 * The failures these tests force are logged as errors, as an operator must see them: the
 * failing action, loader part or upload, and the 500 a request may answer with. Nothing else.
 */
const declareForcedFailureLogs = () =>
  expectConsoleError(
    /"level":"error","message":"(action failed|loader part failed|upload storage failed|notifications failed to load|request failed)"/,
  );

const organisationAdmin = () => createOrganisation({ adminName: "Olive Admin" });

async function pendingAchievement() {
  const { admin, member, organizationId } = await createOrganisationWithMember({
    adminName: "Olive Admin",
    memberName: "Rex Recipient",
  });
  const { achievementId } = await giveAchievement(admin.cookie, { userId: member.id, date: today(), title: "Star" });
  return { admin, member, organizationId, achievementId: achievementId! };
}

describe("an action that fails unexpectedly answers the same page with the spec's title", () => {
  beforeEach(declareForcedFailureLogs);

  it("'Error creating organisation', keeping the typed name", async () => {
    const { admin, organizationId } = await organisationAdmin();
    await env.DB.prepare("delete from organizations where id = ?").bind(organizationId).run();
    await failOn("organizations", "INSERT");
    const response = await postForm(
      "/dashboard?create=1",
      { intent: "create-organization", name: "Typed Org Name", description: "" },
      { cookie: admin.cookie },
    );
    expect(response.status).toBe(500);
    const { title, html } = await pageToast(response);
    expect(title).toBe("Error creating organisation");
    expect(html).toContain('value="Typed Org Name"');
    expect(await countRows("select count(*) as n from organizations where name = 'Typed Org Name'")).toBe(0);
  });

  it("'Error requesting membership'", async () => {
    const { organizationId } = await organisationAdmin();
    const person = await createAccount();
    await failOn("organization_members", "INSERT");
    const response = await postForm(
      "/dashboard",
      { intent: "request-join", organizationId },
      { cookie: person.cookie },
    );
    expect((await pageToast(response)).title).toBe("Error requesting membership");
    expect(await countRows("select count(*) as n from organization_members where user_id = ?", person.id)).toBe(0);
  });

  it("'Error creating achievement', keeping the typed title", async () => {
    const { admin, organizationId } = await organisationAdmin();
    const member = await createAccount();
    await joinByInviteLink(organizationId, member.cookie);
    await failOn("achievements", "INSERT");
    const response = await postForm(
      `/dashboard?add=give-${member.id}`,
      {
        intent: "give-achievement",
        formId: `give-${member.id}`,
        userId: member.id,
        type: "award",
        date: today(),
        title: "Kept",
      },
      { cookie: admin.cookie },
    );
    expect(response.status).toBe(500);
    const { title, html } = await pageToast(response);
    expect(title).toBe("Error creating achievement");
    expect(html).toContain('value="Kept"');
  });

  it("'Error adding achievement' for a self achievement, storing no file", async () => {
    const person = await createAccount();
    await failOn("achievements", "INSERT");
    const form = selfAchievementForm("My typed title");
    const response = await postMultipart("/passport?add=self", form, { cookie: person.cookie });
    const { title, html } = await pageToast(response);
    expect(title).toBe("Error adding achievement");
    expect(html).toContain('value="My typed title"');
    expect((await env.MEDIA.list({ prefix: `achievement-images/self-achievements/${person.id}/` })).objects).toEqual(
      [],
    );
  });

  it.each([
    ["accept", "Error accepting achievement"],
    ["reject", "Error rejecting achievement"],
  ])("'%s' failing in the database says '%s'", async (intent, expected) => {
    const { member, achievementId } = await pendingAchievement();
    await failOn("achievements", "UPDATE");
    const response = await postForm("/passport", { intent, achievementId }, { cookie: member.cookie });
    expect(response.status).toBe(500);
    expect((await pageToast(response)).title).toBe(expected);
  });

  it("an achievement deleted between the page and the click (a race) says 'Error accepting achievement'", async () => {
    const { member, achievementId } = await pendingAchievement();
    await env.DB.prepare("delete from achievements where id = ?").bind(achievementId).run();
    const response = await postForm("/passport", { intent: "accept", achievementId }, { cookie: member.cookie });
    expect(response.status).toBe(404);
    expect((await pageToast(response)).title).toBe("Error accepting achievement");
  });

  // A person's own forms, each with the write it needs made to fail.
  const ownFormFailures: {
    name: string;
    fails: Parameters<typeof failOn>;
    path: string;
    fields: Record<string, string>;
    toast: string;
    then: (page: { html: string; person: { id: string } }) => unknown;
  }[] = [
    {
      name: "'Error updating bio', keeping the typed bio",
      fails: ["profiles", "UPDATE"],
      path: "/passport?edit=bio",
      fields: { intent: "update-bio", bio: "Typed biography" },
      toast: "Error updating bio",
      then: ({ html }) => expect(html).toContain("Typed biography"),
    },
    {
      name: "'Error updating profile', keeping the typed name",
      fails: ["profiles", "UPDATE"],
      path: "/settings?index",
      fields: { intent: "update-profile", fullName: "Typed Name", bio: "" },
      toast: "Error updating profile",
      then: ({ html }) => expect(html).toContain('value="Typed Name"'),
    },
    {
      name: "'Error changing password', the passwords not sent back",
      fails: ["accounts", "UPDATE"],
      path: "/settings/security",
      fields: {
        intent: "change-password",
        currentPassword: PASSWORD,
        newPassword: "new-password-1",
        confirmPassword: "new-password-1",
      },
      toast: "Error changing password",
      then: ({ html }) => expect(html).not.toContain("new-password-1"),
    },
    {
      name: "'Error archiving account', the account left as it was",
      fails: ["profiles", "UPDATE"],
      path: "/settings/danger",
      fields: { intent: "archive" },
      toast: "Error archiving account",
      then: async ({ person }) =>
        expect(
          await countRows("select count(*) as n from profiles where id = ? and deleted_at is null", person.id),
        ).toBe(1),
    },
  ];
  it.each(ownFormFailures)("$name", async ({ fails, path, fields, toast, then }) => {
    const person = await createAccount();
    await failOn(...fails);
    const response = await postForm(path, fields, { cookie: person.cookie });
    const { title, html } = await pageToast(response);
    expect(title).toBe(toast);
    await then({ html, person });
  });

  it("'Error purging account', the person still signed in to try again", async () => {
    const person = await createAccount();
    await postForm("/settings/danger", { intent: "archive" }, { cookie: person.cookie });
    await failOn("users", "DELETE");
    const response = await postForm("/settings", { intent: "purge" }, { cookie: person.cookie });
    expect((await pageToast(response)).title).toBe("Error purging account");
    expect(await countRows("select count(*) as n from users where id = ?", person.id)).toBe(1);
    const again = await get("/settings", person.cookie);
    expect([again.status, again.headers.get("Location")]).toEqual([200, null]);
  });

  it("'Error uploading avatar' and 'Upload failed' go back to the page the form was on", async () => {
    const person = await createAccount();
    await failOn("profiles", "UPDATE");
    const { avatarResponse, videoResponse } = await uploadAvatarAndVideo(person.cookie, { videoFrom: "/settings" });
    expect(avatarResponse.headers.get("Location")).toBe("/settings");
    expect(toastFrom(avatarResponse)?.title).toBe("Error uploading avatar");
    expect(toastFrom(videoResponse)?.title).toBe("Upload failed");
    // Nothing stored for a write that did not happen.
    expect((await env.MEDIA.list({ prefix: `avatars/${person.id}/` })).objects).toEqual([]);
    expect((await env.MEDIA.list({ prefix: `achievement-videos/intro-${person.id}-` })).objects).toEqual([]);
  });
});

describe("storage failing while an upload is read answers with the spec's title, never the error page", () => {
  beforeEach(declareForcedFailureLogs);

  it("'Error uploading avatar' and 'Upload failed' back on the page the form was on", async () => {
    const person = await createAccount();
    failStorage();
    const { avatarResponse, videoResponse } = await uploadAvatarAndVideo(person.cookie, { videoFrom: "/passport" });
    expect(avatarResponse.headers.get("Location")).toBe("/settings");
    expect(toastFrom(avatarResponse)?.title).toBe("Error uploading avatar");
    expect(videoResponse.headers.get("Location")).toBe("/passport");
    expect(toastFrom(videoResponse)?.title).toBe("Upload failed");
    expect(await countRows("select count(*) as n from profiles where id = ? and avatar_url is null", person.id)).toBe(
      1,
    );
  });

  it("'Error adding achievement' on the passport, keeping the typed title", async () => {
    const person = await createAccount();
    failStorage();
    const form = selfAchievementForm("Typed while R2 was down");
    const response = await postMultipart("/passport?add=self", form, { cookie: person.cookie });
    expect(response.status).toBe(500);
    const { title, html } = await pageToast(response);
    expect(title).toBe("Error adding achievement");
    expect(html).toContain('value="Typed while R2 was down"');
    expect(await countRows("select count(*) as n from achievements where user_id = ?", person.id)).toBe(0);
  });
});

/**
 * Every organisation's description becomes a value the database fails on when read. (Dropping the
 * column would not do: SQLite reads an unknown double-quoted column name as a string.)
 */
const UNREADABLE_DESCRIPTIONS = [
  "alter table organizations rename to organizations_kept",
  // The session guard reads whether each of the viewer's organisations asks its admins for a strong factor.
  "create view organizations as select id, name, json('{') as description, require_two_factor, created_at from organizations_kept",
];

describe("a part of a page that fails to load: the rest renders, with the spec's title", () => {
  beforeEach(declareForcedFailureLogs);

  // A page whose one part's query fails (a column or table gone): its title, and what still renders.
  it.each([
    {
      name: "'Error loading members' on the admin dashboard",
      viewer: async () => (await organisationAdmin()).admin,
      // (The 'needs recognition' index is built on approved_at: it goes first.)
      breakage: [
        "drop index organization_members_recognised_since_idx",
        "alter table organization_members drop column approved_at",
      ],
      path: "/dashboard",
      toast: "Error loading members",
      stillShows: ["Organisation Admin"],
    },
    {
      name: "'Error loading dashboard' on the personal dashboard",
      viewer: () => createAccount({ name: "Pat Person" }),
      breakage: ["alter table achievements drop column description"],
      path: "/dashboard",
      toast: "Error loading dashboard",
      stillShows: ["Pat Person"],
    },
    {
      name: "'Error searching organizations'",
      // Someone else's organisation for the search to find.
      viewer: async () => {
        await organisationAdmin();
        return createAccount();
      },
      // The search reads each match's description; the viewer's own organisations (read with the
      // session by the guard, as is organization_roles) do not.
      breakage: UNREADABLE_DESCRIPTIONS,
      path: "/dashboard?q=Org",
      toast: "Error searching organizations",
      stillShows: ['value="Org"'],
    },
    {
      name: "'Error loading organisations' for an organisation account without one: the rest of the dashboard renders",
      viewer: async () => {
        await organisationAdmin();
        const person = await createAccount({ name: "Orla Organiser" });
        await env.DB.prepare("update profiles set user_type = 'organization' where id = ?").bind(person.id).run();
        return person;
      },
      // The list of every organisation reads their descriptions; the viewer's own organisations do not.
      breakage: UNREADABLE_DESCRIPTIONS,
      path: "/dashboard",
      toast: "Error loading organisations",
      stillShows: ["Orla Organiser", "Create Organisation"],
    },
    {
      name: "'Error loading data' on the own passport",
      viewer: () => createAccount(),
      breakage: ["alter table achievements drop column description"],
      path: "/passport",
      toast: "Error loading data",
      stillShows: [],
    },
  ])("$name", async ({ viewer, breakage, path, toast, stillShows }) => {
    const { cookie } = await viewer();
    await env.DB.batch(breakage.map((statement) => env.DB.prepare(statement)));
    const response = await get(path, cookie);
    expect(response.status).toBe(200);
    const { title, html } = await pageToast(response);
    expect(title).toBe(toast);
    for (const text of stillShows) expect(html).toContain(text);
  });

  it("'Error loading memberships': the organisations found still render, each offering Request to Join", async () => {
    const { organizationId } = await organisationAdmin();
    const person = await createAccount({ name: "Mia Member" });
    await postForm("/dashboard", { intent: "request-join", organizationId }, { cookie: person.cookie });
    expect(await countRows("select count(*) as n from organization_members where status = 'pending'")).toBe(1);
    // The person's pending request can no longer be read: its organisation is a value the
    // database fails on. Only the statuses of the organisations listed read a request that is not
    // approved; the viewer's own (approved) organisations are read without touching it.
    await env.DB.batch([
      env.DB.prepare("alter table organization_members rename to organization_members_kept"),
      env.DB.prepare(
        `create view organization_members as select id, user_id,
           case when status = 'approved' then organization_id else json('{') end as organization_id,
           status, requested_at, approved_at, subscription_status, stripe_customer_id,
           stripe_subscription_id, subscribed_by, subscription_event_at
         from organization_members_kept`,
      ),
    ]);
    const response = await get("/dashboard?q=Org", person.cookie);
    expect(response.status).toBe(200);
    const { title, html } = await pageToast(response);
    expect(title).toBe("Error loading memberships");
    expect(html).toContain("Mia Member");
    expect(html).toContain("Request to Join");
    expect(html).not.toContain("Pending Approval");
  });

  it("a failing notification query stays quiet: the page renders, the bell is empty", async () => {
    const person = await createAccount({ name: "Quiet Person" });
    await env.DB.prepare("alter table notifications rename to notifications_gone").run();
    const response = await get("/dashboard", person.cookie);
    expect(response.status).toBe(200);
    const { title, html } = await pageToast(response);
    expect(title).toBeNull();
    expect(html).toContain("Quiet Person");
  });
});

describe("an expired session submitting the Add Achievement dialog", () => {
  const selfForm = () => selfAchievementForm("Typed before expiry");

  it("with JavaScript: 401 with 'Authentication required' and the typed input, nothing stored", async () => {
    const response = await SELF.fetch(`${ORIGIN}/passport.data`, {
      method: "POST",
      headers: {
        Origin: ORIGIN,
        Host: new URL(ORIGIN).host,
        "Sec-Fetch-Mode": "cors",
        "Sec-Fetch-Site": "same-origin",
      },
      body: selfForm(),
      redirect: "manual",
    });
    const body = await response.text();
    expect(response.status).toBe(401);
    expect(body).toContain("Authentication required");
    expect(body).toContain("Please sign in to add achievements.");
    expect(body).toContain("Typed before expiry");
    expect((await env.MEDIA.list({ prefix: "achievement-images/self-achievements/" })).objects).toEqual([]);
  });

  it("without JavaScript: on to sign in, with the toast", async () => {
    const response = await postMultipart("/passport?add=self", selfForm());
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(/^\/auth\?redirectTo=/);
    expect(toastFrom(response)).toMatchObject({
      title: "Authentication required",
      description: "Please sign in to add achievements.",
    });
  });
});
