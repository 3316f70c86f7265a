import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import worker from "#workers/test-app.ts";
import { testSwitchOn, parseRules } from "../../../workers/testing/faults.ts";
import { ORIGIN, PNG_BYTES, createAccount, newClientIp, toastFrom } from "../helpers.ts";
import { FAULT_HEADER } from "./cells.ts";
import { expectConsoleError } from "../console-errors.ts";

// The one switch (issue 34): production cannot turn injected faults on, whichever rule is asked
// for. Only ENVIRONMENT exactly "test" honours the header.

// With the chaos soak's rule (every call fails: 100 %), decision 078.
const EVERY_RULE = "d1:*:*,r2:*,do:notify,mail,stripe,purge,sign,chance:100:switch";
const NOT_TEST = ["production", undefined, "staging", "development", "Test", " test"];

let injected: string[] = [];
const original = console.warn;
afterEach(() => {
  console.warn = original;
  injected = [];
});
function watchFaults() {
  console.warn = (...args: unknown[]) => {
    if (String(args[0]).includes('"fault injected"')) injected.push(String(args[0]));
    original.apply(console, args);
  };
}

describe("the switch for injected faults", () => {
  it("reads every rule of the header", () => {
    const { d1, parts, chance } = parseRules(`${EVERY_RULE}, D1:Insert:Achievements ,nonsense,r2:nothing`);
    expect(d1).toEqual([
      { statement: "*", table: "*" },
      { statement: "insert", table: "achievements" },
      { statement: "insert", table: "dev_mail" },
    ]);
    expect([...parts].sort()).toEqual(
      ["do:notify", "mail", "purge", "r2:delete", "r2:multipart", "r2:put", "sign", "stripe"].sort(),
    );
    expect(chance).toEqual({ percent: 100, seed: "switch" });
  });

  it.each(NOT_TEST.map((value) => [String(value)]))("is off when ENVIRONMENT is %s", (value) => {
    expect(testSwitchOn({ ENVIRONMENT: value === "undefined" ? undefined : value })).toBe(false);
    expect(testSwitchOn({ ENVIRONMENT: "test" })).toBe(true);
  });

  // A page asked to fail every part, under each of these values, is served as ever:
  // read-failures.test.ts, "the switch for injected faults". The chance rule alone, under each of
  // them, fails no call: chance.test.ts.

  it("ENVIRONMENT development: a write (D1 and R2) asked to fail every part is stored", async () => {
    watchFaults();
    const person = await createAccount({ name: "Dev Devon" });
    const body = new FormData();
    body.append("avatar", new File([PNG_BYTES], "me.png", { type: "image/png" }));
    body.append("intent", "upload-avatar");
    const context = createExecutionContext();
    const response = await worker.fetch(
      new Request(`${ORIGIN}/profile/media`, {
        method: "POST",
        body,
        redirect: "manual",
        headers: {
          [FAULT_HEADER]: EVERY_RULE,
          Cookie: person.cookie,
          Origin: ORIGIN,
          Host: new URL(ORIGIN).host,
          "cf-connecting-ip": newClientIp(),
        },
      }),
      { ...env, ENVIRONMENT: "development" } as Env,
      context,
    );
    await waitOnExecutionContext(context);
    expect(response.status).toBe(302);
    expect(toastFrom(response)?.title).toBe("Avatar updated");
    expect((await env.MEDIA.list({ prefix: `avatars/${person.id}/` })).objects).toHaveLength(1);
    expect(injected).toEqual([]);
  });
});

describe("the test entry's routes (workers/testing/)", () => {
  /** POST `path` with a JSON body to the test entry, under the given ENVIRONMENT. */
  async function post(path: string, body: unknown, environment: string | undefined) {
    const context = createExecutionContext();
    const response = await worker.fetch(
      new Request(`${ORIGIN}${path}`, {
        method: "POST",
        body: JSON.stringify(body),
        redirect: "manual",
        headers: {
          "Content-Type": "application/json",
          Origin: ORIGIN,
          Host: new URL(ORIGIN).host,
          "cf-connecting-ip": newClientIp(),
        },
      }),
      // With what production requires, so that any ENVIRONMENT starts the app.
      { ...env, ENVIRONMENT: environment, CREDENTIAL_KEY_SECRET: "k".repeat(40) } as Env,
      context,
    );
    await waitOnExecutionContext(context);
    return response;
  }
  const account = (email: string) => ({ name: "Tess Test", email, password: "correct-horse-1" });
  const named = (email: string) => env.DB.prepare("select id from users where email = ?").bind(email).first();
  const sql = (name: string) => ({
    statements: [
      `insert into dev_mail (id, "to", subject, text, html, created_at) values ('${name}', 'x@example.com', 's', 't', 'h', 0)`,
    ],
  });
  const mail = (name: string) => env.DB.prepare("select id from dev_mail where id = ?").bind(name).first();

  it("under ENVIRONMENT test: /__test/accounts writes a signed-in account, /__test/sql runs its batch", async () => {
    const made = await post("/__test/accounts", account("tess@example.com"), "test");
    expect(made.status).toBe(200);
    expect(made.headers.get("Set-Cookie")).toContain("passport.session_token=");
    expect(await named("tess@example.com")).not.toBeNull();
    expect((await post("/__test/sql", sql("row-test"), "test")).status).toBe(204);
    expect(await mail("row-test")).not.toBeNull();
  });

  it.each(NOT_TEST.map((value) => [String(value)]))(
    "under ENVIRONMENT %s: neither route is there (405, as any address without an action)",
    async (value) => {
      // Remix logs every POST to an address that has no action.
      expectConsoleError(/did not provide an `action` for route "routes\/\$"/);
      const environment = value === "undefined" ? undefined : value;
      const email = `${crypto.randomUUID().slice(0, 8)}@example.com`;
      const made = await post("/__test/accounts", account(email), environment);
      expect(made.status).toBe(405);
      expect(made.headers.get("Set-Cookie")).toBeNull();
      expect(await named(email)).toBeNull();
      expect((await post("/__test/sql", sql(`row-${email}`), environment)).status).toBe(405);
      expect(await mail(`row-${email}`)).toBeNull();
    },
  );
});
