// Seeds the local D1 that `wrangler dev` uses (.wrangler/state, or PERSIST_TO) with the demo world.
import { getPlatformProxy } from "wrangler";
import { createDb } from "../db/client.ts";
import { DEMO_PASSWORD, DEMO_USERS, seed } from "../db/seed.ts";

const persistTo = process.env.PERSIST_TO;
const proxy = await getPlatformProxy<Env>({
  persist: persistTo ? { path: `${persistTo}/v3` } : true,
});
try {
  await seed(createDb(proxy.env.DB));
} finally {
  await proxy.dispose();
}

console.log(`
Demo data is ready. Sign in at http://localhost:${process.env.PORT ?? 8787}/auth with password "${DEMO_PASSWORD}":
  ${DEMO_USERS.admin.email.padEnd(22)} organisation admin of Northwind Health
  ${DEMO_USERS.alex.email.padEnd(22)} member with a full passport (/passport/${DEMO_USERS.alex.id})
  ${DEMO_USERS.sam.email.padEnd(22)} member with a pending achievement
  ${DEMO_USERS.jordan.email.padEnd(22)} waiting for approval
`);
