import { findStatusList, revokedIndexes, storeStatusListCredential } from "#db/queries/credentials/stored.ts";
import { findOrganization } from "#db/queries/organizations.ts";
import { verifiedDomainsOf } from "#db/queries/organization-domains.ts";
import { VC_V2_CONTEXT } from "./contexts.server.ts";
import { sign, xsdDateTime, type JsonObject } from "./data-integrity.server.ts";
import { organizationDid, personDid, statusListUrl, type Issuing } from "./issuer.server.ts";
import {
  currentSigningKey,
  listPublicKeys,
  personKeyOwner,
  signedWithRetiredKey,
  verificationMethodOf,
  type RegisteredKey,
} from "./keys.server.ts";
import { emptyList, encodeList, setBit, STATUS_LIST_SIZE } from "./status-list.server.ts";

// What an issuer publishes for verifiers (served by workers/routes/credentials.ts and read
// offline by our own verifier): the DID documents of organisations and people, and status lists.

/**
 * The DID document of an organisation: every key version it ever signed with. A retired version
 * stays listed, marked `revoked` (W3C Controlled Identifiers), but leaves `assertionMethod`, so
 * nothing it signed verifies any more (decision 054).
 */
export async function didDocument(issuing: Pick<Issuing, "db" | "origin">, organizationId: string) {
  const [keys, domains] = await Promise.all([
    listPublicKeys(issuing.db, organizationId),
    verifiedDomainsOf(issuing.db, organizationId),
  ]);
  if (keys.length === 0 && !(await findOrganization(issuing.db, organizationId))) return null;
  const did = organizationDid(issuing, organizationId);
  return {
    ...keyDocument(did, keys),
    // DIF Well Known DID Configuration: the origins whose did-configuration.json links back here.
    ...(domains.length
      ? {
          service: [
            {
              id: `${did}#linked-domains`,
              type: "LinkedDomains",
              serviceEndpoint: { origins: domains.map((domain) => `https://${domain}`) },
            },
          ],
        }
      : {}),
  };
}

/**
 * The DID document of a person who endorsed something (decision 072): the keys they signed with,
 * none before their first endorsement (then there is no document).
 */
export async function personDidDocument(issuing: Pick<Issuing, "db" | "origin">, userId: string) {
  const keys = await listPublicKeys(issuing.db, personKeyOwner(userId));
  if (keys.length === 0) return null;
  return keyDocument(personDid(issuing, userId), keys);
}

/** A DID document's keys: every version, a retired one marked `revoked` and out of `assertionMethod`. */
function keyDocument(did: string, keys: RegisteredKey[]) {
  const methods = keys.map((key) => ({
    id: verificationMethodOf(did, key.version),
    type: "Multikey",
    controller: did,
    publicKeyMultibase: key.publicKeyMultibase,
    ...(key.retiredAt ? { revoked: xsdDateTime(key.retiredAt) } : {}),
  }));
  return {
    "@context": ["https://www.w3.org/ns/did/v1", "https://w3id.org/security/multikey/v1"],
    id: did,
    verificationMethod: methods,
    assertionMethod: methods.filter((method) => !method.revoked).map((method) => method.id),
  };
}

/**
 * The signed BitstringStatusListCredential of a list. Signed when the list is made and again
 * after a revocation made it stale or its key was retired, never per request otherwise.
 */
export async function statusListCredential(issuing: Issuing, id: string): Promise<JsonObject | null> {
  const list = await findStatusList(issuing.db, id);
  if (!list) return null;
  const stored = list.credential ? (JSON.parse(list.credential) as JsonObject) : null;
  if (stored && !signedWithRetiredKey(stored, list.retiredKeyVersions)) return stored;
  const bits = emptyList();
  for (const index of await revokedIndexes(issuing.db, id, STATUS_LIST_SIZE)) setBit(bits, index);
  const signed = await signStatusList(issuing, list.organizationId, id, bits);
  await storeStatusListCredential(issuing.db, id, list.revision, JSON.stringify(signed));
  return signed;
}

async function signStatusList(issuing: Issuing, organizationId: string, id: string, bits: Uint8Array) {
  const did = organizationDid(issuing, organizationId);
  const url = statusListUrl(issuing.origin, id);
  const now = new Date();
  const key = await currentSigningKey(issuing.db, issuing.secret, organizationId, did);
  return sign(
    {
      "@context": [VC_V2_CONTEXT],
      id: url,
      type: ["VerifiableCredential", "BitstringStatusListCredential"],
      issuer: did,
      validFrom: xsdDateTime(now),
      credentialSubject: {
        id: `${url}#list`,
        type: "BitstringStatusList",
        statusPurpose: "revocation",
        encodedList: await encodeList(bits),
      },
    },
    key,
    now,
  );
}
