import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The budgets and boundaries of issue 42, checked through the repository's own eslint.config.js:
// a service imports no form-reply, cookie or upload helper, not even through a module that
// re-exports one, and a route, service or query module stays within its line budget.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const eslint = new ESLint({ cwd: root });
let fixtures: string;

/** The messages of `ruleId` for `code` linted as the file at `filePath` (from the root; it need not exist). */
async function problems(filePath: string, code: string, ruleId: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  return result!.messages.filter((message) => message.ruleId === ruleId).map((message) => message.message);
}

const lines = (count: number) => Array.from({ length: count }, (_, i) => `export const line${i} = ${i};`).join("\n");
const specifierOf = (file: string) => `#tests/node/${path.basename(fixtures)}/${file}`;

beforeAll(() => {
  // Modules on disk for the rule to follow: a chain of two re-exports to the cookie helpers, one
  // import exported again, and a module that re-exports nothing forbidden.
  fixtures = mkdtempSync(path.join(root, "tests/node/.lint-fixtures-"));
  mkdirSync(fixtures, { recursive: true });
  writeFileSync(path.join(fixtures, "outer.ts"), 'export * from "./inner.ts";\n');
  writeFileSync(path.join(fixtures, "inner.ts"), 'export { toastHeader } from "#app/utils/cookies.server.ts";\n');
  writeFileSync(
    path.join(fixtures, "passed-on.ts"),
    'import { replyFailure } from "../../../app/utils/form-reply.server.ts";\nexport { replyFailure };\n',
  );
  writeFileSync(path.join(fixtures, "clean.ts"), 'export { log } from "#app/utils/log.server.ts";\n');
});
afterAll(() => rmSync(fixtures, { recursive: true, force: true }));

describe("services import no form-reply, cookie or upload helper", () => {
  const service = "app/services/lint-fixture.server.ts";
  const rule = "local/no-forbidden-reexports";

  it.each([
    ['import { redirectWithToast } from "#app/utils/cookies.server.ts";', "app/utils/cookies.server.ts"],
    ['import type { StoredFile } from "../utils/uploads.server.ts";', "app/utils/uploads.server.ts"],
    ['export { replyFailure } from "#app/utils/form-reply.server.ts";', "app/utils/form-reply.server.ts"],
    ['const reply = await import("#app/utils/form-reply.ts");', "app/utils/form-reply.ts"],
  ])("reports a direct import: %s", async (code, forbidden) => {
    expect(await problems(service, code, rule)).toEqual([expect.stringContaining(`leads to ${forbidden}.`)]);
  });

  it("reports an import through modules that re-export a forbidden one, naming the chain", async () => {
    const code = `import { toastHeader } from "${specifierOf("outer.ts")}";`;
    const dir = `tests/node/${path.basename(fixtures)}`;
    expect(await problems(service, code, rule)).toEqual([
      expect.stringContaining(`leads to ${dir}/outer.ts → ${dir}/inner.ts → app/utils/cookies.server.ts.`),
    ]);
  });

  it("reports an import exported again by the module in between", async () => {
    const code = `import { replyFailure } from "${specifierOf("passed-on.ts")}";`;
    expect(await problems(service, code, rule)).toEqual([expect.stringContaining("→ app/utils/form-reply.server.ts.")]);
  });

  it("passes a clean import, and the same import outside app/services", async () => {
    expect(await problems(service, `import { log } from "${specifierOf("clean.ts")}";`, rule)).toEqual([]);
    expect(await problems(service, 'import { log } from "#app/utils/log.server.ts";', rule)).toEqual([]);
    const route = "app/routes/lint-fixture.tsx";
    expect(await problems(route, `import { toastHeader } from "${specifierOf("outer.ts")}";`, rule)).toEqual([]);
  });
});

describe("line budgets", () => {
  it.each([
    ["app/routes/lint-fixture.tsx", 250],
    ["app/routes/lint-fixture/route.tsx", 250],
    ["app/services/lint-fixture.server.ts", 300],
    ["db/queries/lint-fixture.ts", 300],
  ])("%s may have %i lines, not one more", async (filePath, budget) => {
    expect(await problems(filePath, lines(budget), "max-lines")).toEqual([]);
    expect(await problems(filePath, lines(budget + 1), "max-lines")).toEqual([
      `File has too many lines (${budget + 1}). Maximum allowed is ${budget}.`,
    ]);
  });

  it("counts blank lines and comments", async () => {
    const padded = `${lines(200)}\n${"\n".repeat(30)}${"// a comment\n".repeat(30)}`;
    expect(await problems("app/routes/lint-fixture.tsx", padded, "max-lines")).toHaveLength(1);
  });
});
