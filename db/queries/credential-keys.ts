// Retiring a credential key version (decision 054) is an operator's act, run from a shell against
// local or remote D1 through `wrangler d1 execute` (scripts/retire-credential-key.ts), which
// binds no parameters: the statements are written here as text, from inputs checked here.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function checked(organizationId: string, version: number) {
  if (!UUID.test(organizationId)) throw new Error(`not an organisation id: ${organizationId}`);
  if (!Number.isSafeInteger(version) || version < 1) throw new Error(`not a key version: ${version}`);
  return { organizationId, version };
}

/**
 * The organisation's key versions, oldest first, with when each was retired (0: in use; not
 * null, which wrangler's local JSON output writes as the string "null").
 */
export function keyVersionsStatement(organizationId: string) {
  checked(organizationId, 1);
  return (
    `SELECT version, coalesce(retired_at, 0) AS retired_at FROM organization_keys ` +
    `WHERE organization_id = '${organizationId}' ORDER BY version`
  );
}

/**
 * Retires one key version (once: retiring it again keeps the first time). It leaves the DID
 * document's assertionMethod, and signing moves on to the next version.
 */
export function retireKeyStatement(organizationId: string, version: number, retiredAt: Date) {
  const key = checked(organizationId, version);
  return (
    `UPDATE organization_keys SET retired_at = ${retiredAt.getTime()} ` +
    `WHERE organization_id = '${key.organizationId}' AND version = ${key.version} AND retired_at IS NULL`
  );
}
