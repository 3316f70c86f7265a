import { applyD1Migrations, env } from "cloudflare:test";
import { checkClassLists } from "./class-conflicts.ts";
import { failOnUnexpectedConsoleErrors } from "./console-errors.ts";

// Every test file starts from the real migrations applied to an empty D1.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);

failOnUnexpectedConsoleErrors();
// Every server render checks decision 042's rule, and a conflict fails the test that rendered it.
checkClassLists();
