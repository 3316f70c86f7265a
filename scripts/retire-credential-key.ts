// `npm run credentials:retire-key -- <organisation-id> <version> [--remote]`: retires a credential
// key version as compromised (decision 054), in the local D1 that `wrangler dev` uses (PERSIST_TO
// as for the seed) or, with --remote, in the deployed database.
import { spawnSync } from "node:child_process";
import { keyVersionsStatement, retireKeyStatement } from "../db/queries/credential-keys.ts";

const args = process.argv.slice(2);
const remote = args.includes("--remote");
const [organizationId, versionArg, ...rest] = args.filter((arg) => arg !== "--remote");
if (!organizationId || !versionArg || rest.length > 0) {
  console.error("Usage: npm run credentials:retire-key -- <organisation-id> <version> [--remote]");
  process.exit(2);
}
const version = Number(versionArg);

type Result = { results: { version: number; retired_at: number }[] };

function execute(statement: string): Result {
  const where = remote
    ? ["--remote"]
    : ["--local", ...(process.env.PERSIST_TO ? ["--persist-to", process.env.PERSIST_TO] : [])];
  const run = spawnSync("npx", ["wrangler", "d1", "execute", "DB", ...where, "--json", "--command", statement], {
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  });
  if (run.status !== 0) {
    console.error(run.stderr || run.stdout);
    process.exit(1);
  }
  return (JSON.parse(run.stdout) as Result[])[0]!;
}

let statement: string;
try {
  statement = retireKeyStatement(organizationId, version, new Date());
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}
const where = remote ? "the deployed database" : "the local database";
const before = execute(keyVersionsStatement(organizationId)).results;
const key = before.find((row) => row.version === version);
if (!key) {
  const known = before.map((row) => row.version).join(", ");
  console.error(
    `Organisation ${organizationId} has no key version ${version} in ${where}` +
      (known ? ` (its versions: ${known}).` : " (it has signed nothing)."),
  );
  process.exit(1);
}
if (key.retired_at) {
  console.log(
    `Key version ${version} of ${organizationId} was retired already, on ${new Date(key.retired_at).toISOString()}.`,
  );
  process.exit(0);
}
execute(statement);
const latest = before.at(-1)!;
// Signing moves past the newest version when that one is retired (now or before).
const next = latest.version === version || latest.retired_at ? latest.version + 1 : latest.version;
console.log(`Retired key version ${version} of organisation ${organizationId} in ${where}.
- Its DID document (/orgs/${organizationId}/did.json) marks it revoked and no longer lists it in
  assertionMethod: what it signed stops verifying (copies cached by verifiers expire within 5 minutes).
- It is never signed with again: the organisation signs with version ${next} from now on${
  next > latest.version ? " (registered on its next signing)" : ""
}.
- The organisation's credentials signed with version ${version} are signed again with its current key when
  next served (download, JSON answer, page, data export); its status lists on their next request.
If CREDENTIAL_KEY_SECRET itself leaked, put a new one first (wrangler secret put CREDENTIAL_KEY_SECRET),
then retire every version it derived: see README, "Retiring a credential key".`);
