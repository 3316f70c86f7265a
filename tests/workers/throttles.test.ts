import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "#workers/test-app.ts";
import { passwordSignInPaused, recordPasswordFailure } from "#app/services/sign-in-lockout.server.ts";
import { readEnv } from "#app/utils/env.server.ts";
import { ADDRESS_LIMIT_MESSAGE, PASSWORD_LOCKOUT, RATE_LIMIT_MESSAGE } from "#app/utils/rate-limit.server.ts";
import { SIGN_IN_PAUSED_MESSAGE } from "#app/routes/auth/sign-in.server.ts";
import { createDb } from "#db/client.ts";
import { FAULT_HEADER } from "#workers/testing/faults.ts";
import { expectConsoleError } from "./console-errors.ts";
import {
  cookiesFrom,
  createAccount,
  formRequest,
  get,
  mailsTo,
  newClientIp,
  newClientNetwork,
  PASSWORD,
  postForm,
  signIn,
  signUp,
  toastFrom,
  uniqueEmail,
} from "./helpers.ts";

// Throttles that hold (docs/decisions/057): every limit on what anyone may ask counts per network
// (an IPv6 client by its /64), and per address where one is named; wrong passwords pause an
// address's password sign-in; and a refusal reads, and takes, the same for every address.

const NEW_PASSWORD = "Quiet-Harbour-7731";
const PAUSED_MAIL = "Password sign-in to Career Passport paused";
const MINUTE = 60 * 1000;

const resend = (email: string, ip?: string) =>
  postForm("/auth?mode=verify-email", { intent: "resend-verification", email }, { ip });
const forgot = (email: string, ip?: string) =>
  postForm("/auth/forgot-password", { intent: "forgot-password", email }, { ip });

/** A client address inside the network `prefix` (its first 64 bits), the other 64 bits random. */
function insideNetwork(prefix: string) {
  const group = () => crypto.getRandomValues(new Uint16Array(1))[0]!.toString(16);
  return `${prefix}:${group()}:${group()}:${group()}:${group()}`;
}

/** What a person sees of an answer, with the address they typed taken out. */
async function answerOf(response: Response, email: string) {
  const hide = (text: string | null | undefined) =>
    text?.replaceAll(encodeURIComponent(email), "EMAIL").replaceAll(email, "EMAIL") ?? null;
  const html = response.status >= 400 ? await response.text() : "";
  return {
    status: response.status,
    location: hide(response.headers.get("Location")),
    toast: hide(JSON.stringify(toastFrom(response))),
    alert: hide(/role="alert"[^>]*>([^<]+)</.exec(html)?.[1]),
  };
}

/** The link of the newest pause mail to this address: its reset token. */
async function pausedMailToken(email: string) {
  const [mail] = await mailsTo(email, PAUSED_MAIL);
  return new URL(/(https?:\/\/\S+\/auth\/reset-password\?token=\S+)/.exec(mail!.text)![1]!).searchParams.get("token")!;
}

/** Ten wrong passwords for the address, each from a network of its own (as a spraying attacker). */
async function failTenTimes(email: string) {
  const statuses: number[] = [];
  for (let attempt = 0; attempt < PASSWORD_LOCKOUT.failures; attempt++)
    statuses.push((await signIn(email, "wrong-password")).status);
  return statuses;
}

describe("limits per network: an IPv6 client rotating the last 64 bits of its address is one client", () => {
  const strong = { newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD };
  const cases: [string, number, number, (ip: string, cookie: string) => Promise<Response>][] = [
    ["sign-in", 10, 401, (ip) => signIn(uniqueEmail("spray"), "wrong-password", ip)],
    [
      "sign-up",
      5,
      302,
      (ip) =>
        postForm(
          "/auth?mode=personal",
          { intent: "signup", name: "Spray Person", email: uniqueEmail("spray"), password: NEW_PASSWORD },
          { ip },
        ),
    ],
    ["resend", 3, 302, (ip) => resend(uniqueEmail("spray"), ip)],
    ["forgot password", 5, 302, (ip) => forgot(uniqueEmail("spray"), ip)],
    [
      "reset password",
      10,
      400,
      (ip) =>
        postForm(
          "/auth/reset-password?token=guess",
          { intent: "reset-password", token: crypto.randomUUID(), ...strong },
          { ip },
        ),
    ],
    [
      "change password",
      5,
      400,
      (ip, cookie) =>
        postForm(
          "/settings/security",
          { intent: "change-password", currentPassword: "wrong-password", ...strong },
          { ip, cookie },
        ),
    ],
  ];

  it.each(cases)("%s: %i attempts, then 429 from anywhere in the /64", async (_, max, status, attempt) => {
    const { cookie } = await createAccount();
    const prefix = newClientNetwork().replace(/::1$/, "");
    for (let count = 0; count < max; count++)
      expect((await attempt(insideNetwork(prefix), cookie)).status).toBe(status);
    const limited = await attempt(insideNetwork(prefix), cookie);
    expect(limited.status).toBe(429);
    expect(await limited.text()).toContain(RATE_LIMIT_MESSAGE);
    // The same network written short is the same network; another one is not affected.
    expect((await attempt(`${prefix}::1`, cookie)).status).toBe(429);
    expect((await attempt(newClientIp(), cookie)).status).toBe(status);
  });
});

describe("limits per address, from any network", () => {
  it("at most 3 confirmation mails an hour, by sign-up and resend together", async () => {
    const email = uniqueEmail("flooded");
    expect((await signUp({ email })).status).toBe(302);
    for (let attempt = 0; attempt < 2; attempt++) expect((await resend(email)).status).toBe(302);
    for (const refused of [await resend(email), await signUp({ email })]) {
      expect(refused.status).toBe(429);
      expect(await refused.text()).toContain(ADDRESS_LIMIT_MESSAGE);
    }
    expect(await mailsTo(email)).toHaveLength(3);
    // Another address is not affected.
    expect((await resend(uniqueEmail("other"))).status).toBe(302);
  });

  it("a sign-up that fails before its mail is sent does not spend the address's 3 mails an hour", async () => {
    expectConsoleError(/"action failed"|"request failed"/);
    const email = uniqueEmail("unlucky");
    const failing = { headers: { [FAULT_HEADER]: "d1:insert:profiles" } };
    for (let attempt = 0; attempt < 4; attempt++) {
      const refused = await postForm(
        "/auth",
        { intent: "signup", name: "Una Lucky", email, password: PASSWORD },
        failing,
      );
      expect(refused.status, `attempt ${attempt + 1}: the database failed`).toBe(500);
    }
    expect(await mailsTo(email)).toHaveLength(0);
    expect((await signUp({ email })).status).toBe(302);
    expect(await mailsTo(email)).toHaveLength(1);
  });

  it("a signed-in password check (change, permanent deletion) is limited per account too: 10 in 15 minutes", async () => {
    const { cookie } = await createAccount();
    const change = () =>
      postForm(
        "/settings/security",
        {
          intent: "change-password",
          currentPassword: "wrong-password",
          newPassword: NEW_PASSWORD,
          confirmPassword: NEW_PASSWORD,
        },
        { cookie },
      );
    for (let attempt = 0; attempt < 10; attempt++) expect((await change()).status).toBe(400);
    const limited = await change();
    expect(limited.status).toBe(429);
    expect(await limited.text()).toContain("Too many attempts. Please wait 15 minutes and try again.");
  });
});

describe("password sign-in paused after 10 wrong passwords in 15 minutes", () => {
  it("refuses even the right password, mails the owner once with a reset link, and the link lifts the pause", async () => {
    const { email } = await createAccount({ name: "Grace Hopper" });
    expect(await failTenTimes(email)).toEqual([...Array(9).fill(401), 429]);
    for (const password of [PASSWORD, "wrong-again"]) {
      const refused = await signIn(email, password);
      expect(refused.status).toBe(429);
      expect(await refused.text()).toContain(SIGN_IN_PAUSED_MESSAGE);
    }
    const mails = await mailsTo(email, PAUSED_MAIL);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain("Hi Grace Hopper");
    expect(mails[0]!.text).toContain("10 times within 15 minutes");

    // The link is the forgot-password flow's: it sets a password once, signs in and ends the pause.
    const token = await pausedMailToken(email);
    const reset = await postForm(`/auth/reset-password?token=${encodeURIComponent(token)}`, {
      intent: "reset-password",
      token,
      newPassword: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(reset.status).toBe(302);
    expect((await get("/dashboard", cookiesFrom(reset))).status).toBe(200);
    expect((await signIn(email, NEW_PASSWORD)).status).toBe(302);
  });

  it("lifts by itself 15 minutes after the 10th failure (not before), and then counts afresh", async () => {
    const { email } = await createAccount();
    const ctx = createExecutionContext();
    const context = { db: createDb(env.DB), env: readEnv({ ...env }), cloudflare: { env, ctx } };
    const start = Date.now();
    const fail = (at: number) => recordPasswordFailure(context, { email, appUrl: "http://localhost" }, at);
    // Nine failures spread over 14 minutes, the tenth at minute 14: paused from there for 15 minutes.
    for (let attempt = 0; attempt < 9; attempt++) expect(await fail(start + attempt * MINUTE)).toBe(false);
    expect(await passwordSignInPaused(context, email, start + 13 * MINUTE)).toBe(false);
    expect(await fail(start + 14 * MINUTE)).toBe(true);
    expect(await passwordSignInPaused(context, email, start + 14 * MINUTE)).toBe(true);
    expect(await passwordSignInPaused(context, email, start + 29 * MINUTE - 1)).toBe(true);
    expect(await passwordSignInPaused(context, email, start + 29 * MINUTE + 1)).toBe(false);
    // After the pause one failure is one failure; nine more make the next pause, and its one mail.
    for (let attempt = 0; attempt < 9; attempt++) expect(await fail(start + 30 * MINUTE + attempt)).toBe(false);
    expect(await fail(start + 31 * MINUTE)).toBe(true);
    await waitOnExecutionContext(ctx);
    expect(await mailsTo(email, PAUSED_MAIL)).toHaveLength(2);
  });

  it("lets the owner in once the 15 minutes have passed", async () => {
    const { email } = await createAccount();
    await failTenTimes(email);
    expect((await signIn(email, PASSWORD)).status).toBe(429);
    // 15 minutes pass: the pause's clock is moved back rather than waited for.
    await env.DB.prepare("update rate_limits set last_request = last_request - ? where key like 'sign-in-failures:%'")
      .bind(PASSWORD_LOCKOUT.seconds * 1000 + 1)
      .run();
    expect((await signIn(email, PASSWORD)).status).toBe(302);
  });

  it("starts counting again after the right password", async () => {
    const { email } = await createAccount();
    for (let attempt = 0; attempt < 9; attempt++) await signIn(email, "wrong-password");
    expect((await signIn(email, PASSWORD)).status).toBe(302);
    for (let attempt = 0; attempt < 9; attempt++) expect((await signIn(email, "wrong-password")).status).toBe(401);
    expect(await mailsTo(email, PAUSED_MAIL)).toEqual([]);
  });
});

describe("a refusal answers the same whether or not the address has an account", () => {
  type Case = {
    account: (email: string) => Promise<unknown>;
    ask: (email: string) => Promise<Response>;
    /** A sign-up makes an account of an unknown address, and mails it. */
    mailsUnknown?: boolean;
  };
  const cases: [string, Case][] = [
    ["a wrong password", { account: (email) => createAccount({ email }), ask: (email) => signIn(email, "x-wrong-1") }],
    [
      "a paused sign-in, even with the account's right password",
      {
        account: (email) => createAccount({ email }),
        ask: async (email) => {
          await failTenTimes(email);
          return signIn(email, PASSWORD);
        },
      },
    ],
    [
      "a sign-up",
      { account: (email) => createAccount({ email }), ask: (email) => signUp({ email }), mailsUnknown: true },
    ],
    ["a resend", { account: (email) => signUp({ email }), ask: (email) => resend(email) }],
    [
      "a resend over the address's limit",
      {
        account: (email) => signUp({ email }),
        ask: async (email) => {
          for (let attempt = 0; attempt < 3; attempt++) await resend(email);
          return resend(email);
        },
      },
    ],
    ["a forgotten password", { account: (email) => createAccount({ email }), ask: (email) => forgot(email) }],
  ];

  it.each(cases)("%s", async (_, { account, ask, mailsUnknown = false }) => {
    const known = uniqueEmail("known");
    const unknown = uniqueEmail("unknown");
    await account(known);
    const [knownAnswer, unknownAnswer] = [await ask(known), await ask(unknown)];
    expect(await answerOf(knownAnswer, known)).toEqual(await answerOf(unknownAnswer, unknown));
    expect((await mailsTo(unknown)).length > 0).toBe(mailsUnknown);
  });
});

describe("mail leaves after the answer", () => {
  afterEach(() => vi.restoreAllMocks());

  /**
   * Posts a form while the mail provider holds every mail unanswered: the answer must come all
   * the same (the mail goes in `waitUntil`). Then the provider answers, and the mails are listed.
   */
  async function answerWhileMailIsHeld(path: string, fields: Record<string, string>) {
    const original = globalThis.fetch;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const mailedTo: string[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url !== "https://api.resend.com/emails") return original(input, init);
      mailedTo.push(...(JSON.parse(String(init?.body)) as { to: string[] }).to);
      await held;
      return new Response("{}", { status: 200 });
    });
    const bindings = { ...env, RESEND_API_KEY: "re_test", MAIL_FROM: "Passport <hi@example.com>" } as Env;
    const ctx = createExecutionContext();
    const answered = worker.fetch(formRequest(path, fields, { ip: newClientIp() }), bindings, ctx);
    const waited = new Promise<"waited for the mail">((resolve) =>
      setTimeout(() => resolve("waited for the mail"), 10_000),
    );
    const response = await Promise.race([answered, waited]);
    release();
    await waitOnExecutionContext(ctx);
    return { response, mailedTo };
  }

  const cases: [string, (email: string) => Promise<[string, Record<string, string>]>, string][] = [
    [
      "forgot password",
      async (email) => (
        await createAccount({ email }),
        ["/auth/forgot-password", { intent: "forgot-password", email }]
      ),
      "302",
    ],
    ["resend", async (email) => (await signUp({ email }), ["/auth", { intent: "resend-verification", email }]), "302"],
    [
      "sign-up, new address",
      async (email) => ["/auth?mode=personal", { intent: "signup", name: "New Person", email, password: NEW_PASSWORD }],
      "302",
    ],
    [
      "sign-up, taken address",
      async (email) => (
        await createAccount({ email }),
        ["/auth?mode=personal", { intent: "signup", name: "New Person", email, password: NEW_PASSWORD }]
      ),
      "302",
    ],
    [
      "the wrong password that pauses sign-in",
      async (email) => {
        await createAccount({ email });
        for (let attempt = 0; attempt < 9; attempt++) await signIn(email, "wrong-password");
        return ["/auth", { intent: "signin", email, password: "wrong-password" }];
      },
      "429",
    ],
  ];

  it.each(cases)("%s", async (_, prepare, status) => {
    const email = uniqueEmail("held");
    const [path, fields] = await prepare(email);
    const { response, mailedTo } = await answerWhileMailIsHeld(path, fields);
    expect(response).toBeInstanceOf(Response);
    expect(String((response as Response).status)).toBe(status);
    expect(mailedTo).toEqual([email]);
  });
});
