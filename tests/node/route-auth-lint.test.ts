import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The rule that keeps the auth library's write API out of routes (eslint.config.js, issue 42),
// run through ESLint's own API on code as a route would write it.
const eslint = new ESLint({ cwd: process.cwd() });
const MESSAGE = "Routes do not call the auth library: use the accounts service (app/services/accounts).";

async function messagesOf(code: string, filePath: string) {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((message) => message.ruleId === "no-restricted-syntax").map((m) => m.message);
}

describe("routes may not call the auth library", () => {
  it.each([
    ["context.auth.api", "await context.auth.api.changePassword({ body: {} });"],
    ["a nested context", "await args.context.auth.api.verifyPassword({ body: {} });"],
    ["computed members", 'await context["auth"]["api"].signOut({});'],
    ["destructuring", "const { auth } = context;\nawait auth.api.signOut({});"],
    ["destructuring in parameters", "export const f = ({ context: { auth } }) => auth;"],
    ["an instance got another way", "await createAuth(options).api.signOut({});"],
  ])("refuses %s", async (_, code) => {
    const messages = await messagesOf(`${code}\n`, "app/routes/_app.settings.security/x.server.ts");
    expect(messages.length).toBeGreaterThan(0);
    expect(messages).toContain(MESSAGE);
  });

  it("allows a read of the session through the load context, and the accounts service to call the library", async () => {
    expect(await messagesOf("await context.getSession();\n", "app/routes/_app.settings.security/x.server.ts")).toEqual(
      [],
    );
    expect(await messagesOf("await context.auth.api.signOut({});\n", "app/services/accounts/x.server.ts")).toEqual([]);
  });
});
