import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { countRows, postForm } from "./helpers.ts";
import { createOrganisationWithMember, uniqueName } from "./factories.ts";

// When an organisation offers an achievement, the recipient also gets an e-mail (the dev
// mailbox here), unless they turned these e-mails off; a failed e-mail never loses the offer.

const organisationWithMember = () =>
  createOrganisationWithMember({ adminName: "Ada Admin", memberName: "Rex Recipient", name: uniqueName("Mailers") });

const give = (cookie: string, userId: string, title = "Star of the Month") =>
  postForm(
    "/dashboard",
    { intent: "give-achievement", formId: "give", type: "award", date: "2024-05-17", title, userId },
    { cookie },
  );

const mailTo = async (email: string) =>
  (
    await env.DB.prepare('select subject, text, html from dev_mail where "to" = ? order by created_at')
      .bind(email)
      .all<{ subject: string; text: string; html: string }>()
  ).results;

describe("e-mail when recognised", () => {
  it("tells the recipient the title and the organisation, with a link to accept on /passport", async () => {
    const { admin, member, organizationName } = await organisationWithMember();
    const before = (await mailTo(member.email)).length;
    expect((await give(admin.cookie, member.id, "Star <of> the Month")).status).toBe(302);
    const mail = (await mailTo(member.email)).slice(before);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toBe(`${organizationName} recognised you: Star <of> the Month`);
    expect(mail[0]!.text).toContain('"Star <of> the Month"');
    expect(mail[0]!.text).toContain("Accept it: http://localhost/passport\n");
    expect(mail[0]!.html).toContain('href="http://localhost/passport"');
    expect(mail[0]!.html).toContain("Star &#60;of&#62; the Month");
    // Only the recipient is written to.
    expect(
      await countRows(
        'select count(*) as n from dev_mail where "to" = ? and subject like ?',
        admin.email,
        "%recognised%",
      ),
    ).toBe(0);
  });

  it("is not sent once the person turns it off in Settings, and comes back when turned on", async () => {
    const { admin, member } = await organisationWithMember();
    const saved = await postForm(
      "/settings?index",
      { intent: "update-preferences", searchIndexing: "on" },
      { cookie: member.cookie },
    );
    expect(saved.status).toBe(302);
    const before = (await mailTo(member.email)).length;
    expect((await give(admin.cookie, member.id, "Quiet Award")).status).toBe(302);
    expect(await mailTo(member.email)).toHaveLength(before);
    // The offer itself and the in-app notification still arrive.
    expect(
      await countRows("select count(*) as n from achievements where user_id = ? and title = 'Quiet Award'", member.id),
    ).toBe(1);
    expect(
      await countRows(
        "select count(*) as n from notifications where user_id = ? and message like '%Quiet Award%'",
        member.id,
      ),
    ).toBe(1);

    await postForm(
      "/settings?index",
      { intent: "update-preferences", recognitionEmails: "on" },
      { cookie: member.cookie },
    );
    await give(admin.cookie, member.id, "Loud Award");
    expect((await mailTo(member.email)).at(-1)!.subject).toContain("Loud Award");
  });

  it("a failed e-mail never loses the achievement or fails the admin's action", async () => {
    const { admin, member } = await organisationWithMember();
    // The mailbox (the mail provider's stand-in) is gone: sending throws.
    await env.DB.prepare("drop table dev_mail").run();
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const response = await give(admin.cookie, member.id, "Resilient Award");
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/dashboard");
      expect(errors.mock.calls.some(([line]) => String(line).includes("recognition email failed"))).toBe(true);
    } finally {
      errors.mockRestore();
    }
    expect(
      await countRows(
        "select count(*) as n from achievements where user_id = ? and title = 'Resilient Award' and status = 'pending'",
        member.id,
      ),
    ).toBe(1);
    expect(
      await countRows(
        "select count(*) as n from notifications where user_id = ? and message like '%Resilient Award%'",
        member.id,
      ),
    ).toBe(1);
  });
});
