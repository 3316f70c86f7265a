import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  countRows,
  createAccount,
  get,
  mailsTo,
  PASSWORD,
  PNG_BYTES,
  postForm,
  postMultipart,
  toastFrom,
  uniqueEmail,
} from "./helpers.ts";
import { expectConsoleError } from "./console-errors.ts";
import { createOrganisationWithMember, uniqueName } from "./factories.ts";
import { today } from "#tests/today.ts";

// Decision 012: a form render carries an idempotency key, so a double click, a retry after a
// timeout or a resubmitted page stores its row once (found by the soak test, issue 9).

const mediaCount = async (prefix: string) => (await env.MEDIA.list({ prefix })).objects.length;

/**
 * The key the signed-in layout rendered into the page's forms (a dialog's form: its ?add=
 * address, as without JavaScript).
 */
async function renderedKey(path: string, cookie: string) {
  const html = await (await get(path, cookie)).text();
  const key = /name="submissionKey" value="([0-9a-f-]{36})"/.exec(html)?.[1];
  expect(key).toBeTruthy();
  return key!;
}

const organisationWithMember = () =>
  createOrganisationWithMember({ adminName: "Ida Idempotent", memberName: "Otto Once", name: uniqueName("Once") });

describe("a form submitted twice", () => {
  it("gives one achievement, with one picture and one notification, and answers both the same", async () => {
    const { admin, member, organizationId } = await organisationWithMember();
    const submissionKey = await renderedKey(`/dashboard?add=give-${member.id}`, admin.cookie);
    const send = () => {
      const form = new FormData();
      for (const [name, value] of Object.entries({
        intent: "give-achievement",
        formId: "give",
        submissionKey,
        userId: member.id,
        title: "Twice Clicked",
        date: today(),
        type: "award",
      }))
        form.append(name, value);
      form.append("media", new File([PNG_BYTES], "badge.png", { type: "image/png" }));
      return postMultipart("/dashboard", form, { cookie: admin.cookie });
    };
    const [first, second] = await Promise.all([send(), send()]);
    const third = await send();
    for (const response of [first, second, third]) {
      expect(response.status).toBe(302);
      expect(toastFrom(response)?.title).toBe("Achievement created");
    }
    expect(
      await countRows(
        "select count(*) as n from achievements where user_id = ? and title = 'Twice Clicked'",
        member.id,
      ),
    ).toBe(1);
    expect(
      await countRows(
        "select count(*) as n from notifications where user_id = ? and title = 'New achievement'",
        member.id,
      ),
    ).toBe(1);
    // The duplicates' pictures were deleted; only the saved row's remains.
    expect(await mediaCount(`achievement-images/${organizationId}/`)).toBe(1);
  });

  it("a new render of the form gets a new key, so the next achievement is stored", async () => {
    const { admin, member } = await organisationWithMember();
    for (const title of ["First Render", "Second Render"]) {
      const submissionKey = await renderedKey(`/dashboard?add=give-${member.id}`, admin.cookie);
      await postForm(
        "/dashboard",
        {
          intent: "give-achievement",
          formId: "give",
          submissionKey,
          userId: member.id,
          title,
          date: today(),
          type: "award",
        },
        { cookie: admin.cookie },
      );
    }
    expect(
      await countRows(
        "select count(*) as n from achievements where user_id = ? and organization_id is not null",
        member.id,
      ),
    ).toBe(2);
  });

  it("stores a self achievement once", async () => {
    const person = await createAccount({ name: "Sol Self" });
    const submissionKey = await renderedKey("/passport?add=self", person.cookie);
    const send = () =>
      postForm(
        "/passport",
        {
          intent: "add-self-achievement",
          formId: "self",
          submissionKey,
          title: "Marathon",
          company: "Club",
          date: today(),
          type: "milestone",
        },
        { cookie: person.cookie },
      );
    const answers = await Promise.all([send(), send()]);
    expect(answers.map((response) => response.status)).toEqual([302, 302]);
    expect(await countRows("select count(*) as n from achievements where user_id = ?", person.id)).toBe(1);
  });

  it("stores feedback once", async () => {
    const person = await createAccount({ name: "Fay Feedback" });
    const submissionKey = await renderedKey("/settings", person.cookie);
    const send = () =>
      postForm(
        "/settings?index",
        { intent: "send-feedback", submissionKey, message: "Love it", rating: "5" },
        { cookie: person.cookie },
      );
    const answers = await Promise.all([send(), send(), send()]);
    expect(answers.map((response) => toastFrom(response)?.title)).toEqual([
      "Feedback sent",
      "Feedback sent",
      "Feedback sent",
    ]);
    expect(await countRows("select count(*) as n from beta_feedback where user_id = ?", person.id)).toBe(1);
  });

  it("keys are per user: another user's key does not swallow a submission", async () => {
    const one = await createAccount({ name: "Una" });
    const two = await createAccount({ name: "Dos" });
    const submissionKey = await renderedKey("/settings", one.cookie);
    await postForm(
      "/settings?index",
      { intent: "send-feedback", submissionKey, message: "Mine" },
      { cookie: one.cookie },
    );
    await postForm(
      "/settings?index",
      { intent: "send-feedback", submissionKey, message: "Also mine" },
      { cookie: two.cookie },
    );
    expect(await countRows("select count(*) as n from beta_feedback where user_id in (?, ?)", one.id, two.id)).toBe(2);
  });

  it("refuses a key that is not one the app renders", async () => {
    const person = await createAccount({ name: "Bo Bogus" });
    const response = await postForm(
      "/settings?index",
      { intent: "send-feedback", submissionKey: "not-a-key", message: "Hi" },
      { cookie: person.cookie },
    );
    expect(response.status).toBe(400);
    expect(await countRows("select count(*) as n from beta_feedback where user_id = ?", person.id)).toBe(0);
  });

  it("keeps the account a sign-up's first answer was about when the same sign-up is sent again, and mails it again", async () => {
    const email = uniqueEmail("again");
    const send = () => postForm("/auth", { intent: "signup", name: "Rhea Resent", email, password: PASSWORD });
    expect(toastFrom(await send())?.title).toBe("Check your email");
    const first = await env.DB.prepare("select id from users where email = ?").bind(email).first<{ id: string }>();
    const again = await send();
    expect(toastFrom(again)?.title).toBe("Check your email");
    expect(await env.DB.prepare("select id from users where email = ?").bind(email).all()).toMatchObject({
      results: [{ id: first!.id }],
    });
    expect(await mailsTo(email)).toHaveLength(2);
    // Another sign-up for the address (another password) still replaces it: the first is not the owner's.
    await postForm("/auth", { intent: "signup", name: "Rhea Resent", email, password: `${PASSWORD}-other` });
    const replaced = await env.DB.prepare("select id from users where email = ?").bind(email).first<{ id: string }>();
    expect(replaced!.id).not.toBe(first!.id);
  });

  it("signs up once and answers both the same when the sign-up form is sent twice at once", async () => {
    // The losing inserts hit the unique e-mail index, which better-auth logs as an error.
    expectConsoleError(/\[Better Auth\]: Failed to create user .*insert into "users"/);
    const email = uniqueEmail("twice");
    const send = () => postForm("/auth", { intent: "signup", name: "Tess Twice", email, password: PASSWORD });
    const answers = await Promise.all([send(), send(), send()]);
    expect(answers.map((response) => response.status)).toEqual([302, 302, 302]);
    expect(new Set(answers.map((response) => response.headers.get("Location"))).size).toBe(1);
    expect(await countRows("select count(*) as n from users where email = ?", email)).toBe(1);
  });
});
