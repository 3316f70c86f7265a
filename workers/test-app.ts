// The Worker as tests, the e2e server, the soak and the benchmark run it: the production app with
// the test machinery in front (each piece also refuses to act in production). wrangler.toml's
// `main` stays workers/app.ts, so none of this is deployed; `npm run worker-size` fails if any of
// it reaches the production bundle.
import { createApp } from "./app.ts";
import { scheduled } from "./scheduled.ts";
import { queue } from "./media-backup.ts";
import { countD1RoundTrips } from "./testing/round-trips.ts";
import { injectFaults } from "./testing/faults.ts";
import { passportRefresh } from "./testing/passport-refresh.ts";
import { testAccounts } from "./testing/account-route.ts";
import { testSql } from "./testing/sql-route.ts";

export { AUTH_API_ENDPOINTS } from "./app.ts";
export { PersonHub } from "./person-hub.ts";

// The counter first: a call the fault switch fails never reaches D1, so it is not counted.
export const app = createApp([countD1RoundTrips, injectFaults, passportRefresh, testAccounts, testSql]);

export default {
  fetch: app.fetch,
  scheduled,
  queue,
} satisfies ExportedHandler<Env>;
