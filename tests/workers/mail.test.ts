import { createExecutionContext, env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "#workers/test-app.ts";
import { createMailer, verificationEmail } from "#app/utils/email.server.ts";
import { readEnv } from "#app/utils/env.server.ts";
import { createDb } from "#db/client.ts";
import { get, productionBindings } from "./helpers.ts";

const message = verificationEmail({
  email: "ada@example.com",
  name: "Ada <script>",
  confirmationUrl: "http://localhost/auth/confirm?token=abc",
  isOrgSignup: true,
  organizationName: "Engines & Co",
});

describe("mail", () => {
  afterEach(() => vi.restoreAllMocks());

  it("the verification e-mail has a text and an escaped HTML part with the confirmation link", () => {
    expect(message.subject).toContain("Confirm your email");
    expect(message.text).toContain("http://localhost/auth/confirm?token=abc");
    expect(message.text).toContain("Engines & Co");
    expect(message.html).toContain("Engines &#38; Co");
    expect(message.html).not.toContain("<script>");
  });

  it("without a provider key, mail lands in the dev mailbox, newest first", async () => {
    const mailer = createMailer(readEnv({ ...env, RESEND_API_KEY: "" }), createDb(env.DB));
    await mailer.send({ ...message, subject: "first" });
    await mailer.send({ ...message, subject: "second" });
    const response = await get("/dev/mail.json?to=ada@example.com");
    expect(((await response.json()) as { subject: string }[]).map((item) => item.subject)).toEqual(["second", "first"]);
    expect(await (await get("/dev/mail")).text()).toContain("second");
  });

  it("with a provider key, mail goes to the provider's HTTP API", async () => {
    // The provider is the one outside service here: its HTTP endpoint is stood in for.
    const fetchSpy = vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response("{}", { status: 200 }));
    const mailer = createMailer(
      readEnv({ ...env, RESEND_API_KEY: "re_test", MAIL_FROM: "Passport <hi@example.com>" }),
      createDb(env.DB),
    );
    await mailer.send(message);
    const [url, init] = fetchSpy.mock.calls[0]!;
    expect(url).toBe("https://api.resend.com/emails");
    expect(new Headers(init?.headers).get("Authorization")).toBe("Bearer re_test");
    expect(JSON.parse(String(init?.body))).toMatchObject({
      from: "Passport <hi@example.com>",
      to: ["ada@example.com"],
      subject: message.subject,
      text: message.text,
      html: message.html,
    });
    expect(await env.DB.prepare("select count(*) as n from dev_mail").first()).toEqual({ n: 0 });
  });

  it("the dev mailbox does not exist in production", async () => {
    const production = productionBindings();
    for (const path of ["/dev/mail", "/dev/mail.json?to=ada@example.com"]) {
      const response = await worker.fetch(new Request(`http://localhost${path}`), production, createExecutionContext());
      expect(response.status, path).toBe(404);
    }
  });
});
