import { replaceCredentialJson } from "#db/queries/credentials/stored.ts";
import { sign, type JsonObject } from "./data-integrity.server.ts";
import type { Issuing } from "./issuer.server.ts";
import { currentSigningKey, signedWithRetiredKey, signingKeyFor, type RegisteredKey } from "./keys.server.ts";

/** A stored credential row as it is read to be served, with its organisation's retired key versions. */
export type StoredCredential = { id: string; organizationId: string; json: string; retiredKeyVersions: number[] };

/**
 * A stored credential as it may be handed out: as stored, unless the key version that signed it
 * was retired (decision 054). Then the same credential (same id, status entry and dates) is
 * signed again with the organisation's current key, stored in place of the old one, and that is
 * what is served: its holder's next download verifies again, without the issuer doing anything.
 */
export async function servableCredential(
  signer: Pick<Issuing, "db" | "secret">,
  stored: StoredCredential,
): Promise<JsonObject> {
  const credential = JSON.parse(stored.json) as JsonObject;
  if (!signedWithRetiredKey(credential, stored.retiredKeyVersions)) return credential;
  const { proof: _retired, ...unsigned } = credential;
  // The DID it was issued under (the app's origin then), so that the new proof is its issuer's.
  const issuer = credential.issuer as string | { id: string };
  const did = typeof issuer === "string" ? issuer : issuer.id;
  const key = await currentSigningKey(signer.db, signer.secret, stored.organizationId, did);
  const reissued = await sign(unsigned, key, new Date());
  // Served either way: if another request re-signed it first, both proofs verify.
  await replaceCredentialJson(signer.db, stored.id, stored.json, JSON.stringify(reissued));
  return reissued;
}

/**
 * A stored credential issued again to the DID of a holder's wallet (decision 064): the same
 * credential (id, achievement, status list entry, dates) with `credentialSubject.id` the holder's
 * DID, signed now with the organisation's current key. `latestKey` is the organisation's newest
 * registered key (read with the caller's other reads); a version not registered yet comes back as
 * `register`, to store with the caller's next write. Nothing is stored here: the wallet keeps it.
 */
export async function reissueToHolder(
  signer: Pick<Issuing, "secret">,
  stored: { organizationId: string; json: string },
  holder: string,
  latestKey: RegisteredKey | undefined,
) {
  const { proof: _proof, ...credential } = JSON.parse(stored.json) as JsonObject;
  const { id: _subject, ...subject } = credential.credentialSubject as JsonObject;
  const issuer = credential.issuer as string | { id: string };
  const did = typeof issuer === "string" ? issuer : issuer.id;
  const { key, register } = await signingKeyFor(signer.secret, stored.organizationId, did, latestKey);
  const reissued = { ...credential, credentialSubject: { id: holder, ...subject } };
  return { credential: await sign(reissued, key, new Date()), register };
}

/**
 * `reissueToHolder` for a stored credential read with `reissueColumns` (db/queries/credentials/stored.ts):
 * its JSON and organisation, and the organisation's newest key as its columns give it.
 */
export function reissueStored(
  signer: Pick<Issuing, "secret">,
  stored: {
    organizationId: string;
    json: string;
    keyVersion: number | null;
    keyMultibase: string | null;
    keyRetiredAt: Date | null;
  },
  holder: string,
) {
  const latestKey =
    stored.keyVersion === null || stored.keyMultibase === null
      ? undefined
      : { version: stored.keyVersion, publicKeyMultibase: stored.keyMultibase, retiredAt: stored.keyRetiredAt };
  return reissueToHolder(signer, stored, holder, latestKey);
}
