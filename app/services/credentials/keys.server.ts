import { and, desc, eq } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { organizationKeys } from "#db/schema.ts";
import { proofOf, publicKeyMultibase, type JsonObject } from "./data-integrity.server.ts";

/**
 * One Ed25519 key per organisation and version, derived with HKDF from one Worker secret
 * (CREDENTIAL_KEY_SECRET) and never stored; D1 keeps only the public keys, which stay in the DID
 * document forever so that rotating never breaks what was signed (decision 020). A version
 * retired as compromised stays listed but no longer asserts anything, and is never signed with
 * again (decision 054).
 */

// PKCS#8 wrapping of a raw 32-byte Ed25519 seed (RFC 8410), the form Web Crypto imports.
const PKCS8_ED25519_PREFIX = [
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
];

export async function ed25519FromSeed(seed: Uint8Array) {
  const privateKey = await crypto.subtle.importKey(
    "pkcs8",
    Uint8Array.from([...PKCS8_ED25519_PREFIX, ...seed]),
    "Ed25519",
    true,
    ["sign"],
  );
  const { x } = (await crypto.subtle.exportKey("jwk", privateKey)) as JsonWebKey;
  const publicKey = Uint8Array.from(atob(x!.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  return { privateKey, publicKey };
}

async function deriveKey(secret: string, organizationId: string, version: number) {
  const encoder = new TextEncoder();
  const material = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveBits"]);
  const seed = await crypto.subtle.deriveBits(
    {
      name: "HKDF",
      hash: "SHA-256",
      salt: encoder.encode("career-passport/credential-keys"),
      info: encoder.encode(`${organizationId}/${version}`),
    },
    material,
    256,
  );
  return ed25519FromSeed(new Uint8Array(seed));
}

export const didOf = (host: string, organizationId: string) =>
  `did:web:${encodeURIComponent(host)}:orgs:${organizationId}`;
/**
 * A person's keys are held as an organisation's are (decision 072): derived from the same secret
 * and registered in `organization_keys` under this owner id, which no organisation's id (a UUID)
 * can be, so neither the derived keys nor the rows ever meet an organisation's.
 */
export const personKeyOwner = (userId: string) => `people:${userId}`;
export const personDidOf = (host: string, userId: string) => `did:web:${encodeURIComponent(host)}:people:${userId}`;
export const verificationMethodOf = (did: string, version: number) => `${did}#key-${version}`;
/** The key version a proof's verification method names (`…#key-3`), or null for another form. */
export const versionOfVerificationMethod = (verificationMethod: string) => {
  const match = /#key-([1-9][0-9]{0,8})$/.exec(verificationMethod);
  return match ? Number(match[1]) : null;
};

/** Whether `document`'s proof names one of `retiredVersions` (the signer's retired key versions). */
export function signedWithRetiredKey(document: JsonObject, retiredVersions: readonly number[]) {
  const version = versionOfVerificationMethod(proofOf(document)?.verificationMethod ?? "");
  return version !== null && retiredVersions.includes(version);
}

const registeredKeyColumns = {
  version: organizationKeys.version,
  publicKeyMultibase: organizationKeys.publicKeyMultibase,
  retiredAt: organizationKeys.retiredAt,
};

export function listPublicKeys(db: Db, organizationId: string) {
  return db
    .select(registeredKeyColumns)
    .from(organizationKeys)
    .where(eq(organizationKeys.organizationId, organizationId))
    .orderBy(organizationKeys.version)
    .limit(1000);
}

export type RegisteredKey = { version: number; publicKeyMultibase: string; retiredAt: Date | null };

/**
 * The key to sign with, given the organisation's newest registered public key (`latest`, none
 * before its first signing, retired or not): that version's key while the secret still derives
 * it and it is not retired. When the secret has changed since, the derived key no longer matches
 * that public key, and the next version is used rather than a key nobody can verify; so it is
 * when that version was retired. A version not registered yet comes with `register`, the public
 * half to store with (or before) whatever it signs. No D1 here: the caller read `latest` with its
 * other reads.
 */
export async function signingKeyFor(
  secret: string,
  organizationId: string,
  did: string,
  latest: RegisteredKey | undefined,
) {
  if (latest && !latest.retiredAt) {
    const key = await deriveKey(secret, organizationId, latest.version);
    if (publicKeyMultibase(key.publicKey) === latest.publicKeyMultibase)
      return { key: { ...key, verificationMethod: verificationMethodOf(did, latest.version) }, register: null };
  }
  const version = (latest?.version ?? 0) + 1;
  const key = await deriveKey(secret, organizationId, version);
  return {
    key: { ...key, verificationMethod: verificationMethodOf(did, version) },
    register: { organizationId, version, publicKeyMultibase: publicKeyMultibase(key.publicKey) },
  };
}

/** The organisation's current signing key, registering its public half first when new. */
export async function currentSigningKey(db: Db, secret: string, organizationId: string, did: string) {
  const [latest] = await db
    .select(registeredKeyColumns)
    .from(organizationKeys)
    .where(eq(organizationKeys.organizationId, organizationId))
    .orderBy(desc(organizationKeys.version))
    .limit(1);
  const { key, register } = await signingKeyFor(secret, organizationId, did, latest);
  return register ? rotateKey(db, secret, organizationId, did, register.version) : key;
}

/** Starts a new key version; older versions stay published (and valid for what they signed). */
export async function rotateKey(db: Db, secret: string, organizationId: string, did: string, version?: number) {
  const next =
    version ??
    ((
      await db
        .select({ version: organizationKeys.version })
        .from(organizationKeys)
        .where(eq(organizationKeys.organizationId, organizationId))
        .orderBy(desc(organizationKeys.version))
        .limit(1)
    )[0]?.version ?? 0) + 1;
  const key = await deriveKey(secret, organizationId, next);
  // Two first signings at once derive the same key for the same version: the loser's insert is
  // ignored and it signs with the identical key.
  await db
    .insert(organizationKeys)
    .values({ organizationId, version: next, publicKeyMultibase: publicKeyMultibase(key.publicKey) })
    .onConflictDoNothing();
  const [stored] = await db
    .select({ publicKeyMultibase: organizationKeys.publicKeyMultibase })
    .from(organizationKeys)
    .where(and(eq(organizationKeys.organizationId, organizationId), eq(organizationKeys.version, next)))
    .limit(1);
  if (stored?.publicKeyMultibase !== publicKeyMultibase(key.publicKey))
    throw new Error("credential key version taken by another key");
  return { ...key, verificationMethod: verificationMethodOf(did, next) };
}
