// Seeds the local D1 that `wrangler dev` uses (.wrangler/state, or PERSIST_TO) with the demo world,
// and issues its credentials as the app would, with the app's own settings (.dev.vars): its
// origin (APP_URL, unless the environment sets one, as the e2e server does for its port) and its
// key secret. So what `npm start` serves verifies. Migrations not yet applied are applied first, as
// the Workers tests apply them (and recorded where `wrangler d1 migrations apply` looks), so a fresh
// state folder needs this script alone: one runtime instead of wrangler's ~9 s of its own.
import { readD1Migrations } from "@cloudflare/vitest-pool-workers/config";
import { getPlatformProxy } from "wrangler";
import { issueDemoCredentials } from "../app/services/credentials/demo.server.ts";
import { issuing } from "../app/services/credentials/issuer.server.ts";
import { readEnv } from "../app/utils/env.server.ts";
import { createDb } from "../db/client.ts";
import { DEMO_ORGANISATION } from "../db/demo-data.ts";
import { DEMO_ORGANISATION_ID, DEMO_PASSWORD, DEMO_USERS, seed } from "../db/seed.ts";

const persistTo = process.env.PERSIST_TO;
const proxy = await getPlatformProxy<Env>({
  persist: persistTo ? { path: `${persistTo}/v3` } : true,
});
let signed: string;
try {
  await applyPendingMigrations(proxy.env.DB);
  const db = createDb(proxy.env.DB);
  await seed(db);
  const env = readEnv({ ...proxy.env, ...(process.env.APP_URL ? { APP_URL: process.env.APP_URL } : {}) });
  const signer = issuing(db, env);
  if (signer) {
    const { domain } = DEMO_ORGANISATION;
    const { issued } = await issueDemoCredentials(signer, { organizationId: DEMO_ORGANISATION_ID, domain });
    signed = `${DEMO_ORGANISATION.name} has ${domain} verified (DNS stand-in: /dev/dns.json) and its published
did-configuration.json (web stand-in: /dev/web.json); ${issued ? `${issued} credentials issued for ${signer.origin}.` : "its credentials were issued before."}`;
  } else signed = "No credentials issued: APP_URL is not set in .dev.vars, and credentials need the app's origin.";
} finally {
  await proxy.dispose();
}

console.log(`
Demo data is ready. Sign in at http://localhost:${process.env.PORT ?? 8787}/auth with password "${DEMO_PASSWORD}":
  ${DEMO_USERS.admin.email.padEnd(22)} organisation admin of ${DEMO_ORGANISATION.name}
  ${DEMO_USERS.alex.email.padEnd(22)} member with a full passport (/passport/${DEMO_USERS.alex.id})
  ${DEMO_USERS.sam.email.padEnd(22)} member with a pending achievement
  ${DEMO_USERS.jordan.email.padEnd(22)} waiting for approval
${signed}
`);

/** Each migration not in wrangler's `d1_migrations` table, in one batch with its row there. */
async function applyPendingMigrations(database: D1Database) {
  await database
    .prepare(
      "CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)",
    )
    .run();
  const { results } = await database.prepare("SELECT name FROM d1_migrations").all<{ name: string }>();
  const applied = new Set(results.map(({ name }) => name));
  for (const { name, queries } of await readD1Migrations("migrations")) {
    if (applied.has(name)) continue;
    await database.batch([
      ...queries.map((query) => database.prepare(query)),
      database.prepare("INSERT INTO d1_migrations (name) VALUES (?)").bind(name),
    ]);
  }
}
