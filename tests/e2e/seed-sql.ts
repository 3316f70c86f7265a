import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Runs SQL straight against the test server's local D1 (as the benchmark seeds): making dozens
 * of rows through the forms would take minutes.
 */
export function runSql(statements: string[]) {
  const file = join(mkdtempSync(join(tmpdir(), "e2e-seed-")), "seed.sql");
  writeFileSync(file, statements.join("\n"));
  execFileSync(
    "npx",
    ["wrangler", "d1", "execute", "DB", "--local", "--persist-to", ".wrangler/e2e", "--file", file, "--yes"],
    { stdio: "ignore", env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "1" } },
  );
}
