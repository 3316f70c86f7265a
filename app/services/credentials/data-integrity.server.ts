import { decode as decodeBase58, encode as encodeBase58 } from "base58-universal";
import jsonld from "jsonld";
import { documentLoader } from "./contexts.server.ts";

/**
 * W3C Data Integrity with the eddsa-rdfc-2022 cryptosuite, on Web Crypto's Ed25519: the
 * canonical N-Quads (RDFC-1.0) of the proof options and of the document are hashed with SHA-256
 * and the two hashes (options first) are signed. Pinned by 1EdTech's known-answer vector in
 * tests/workers/credentials-signing.test.ts and cross-checked by an independent verifier.
 */

export type JsonObject = Record<string, unknown>;
export type DataIntegrityProof = {
  type: "DataIntegrityProof";
  cryptosuite: "eddsa-rdfc-2022";
  created: string;
  verificationMethod: string;
  proofPurpose: "assertionMethod";
  proofValue: string;
};

// Multicodec prefix of an Ed25519 public key in a Multikey (0xed01), base58btc multibase ("z").
const ED25519_PUB_PREFIX = [0xed, 0x01];

export function publicKeyMultibase(publicKey: Uint8Array) {
  return `z${encodeBase58(Uint8Array.from([...ED25519_PUB_PREFIX, ...publicKey]))}`;
}

export function publicKeyFromMultibase(multibase: string): Uint8Array | null {
  if (!multibase.startsWith("z")) return null;
  try {
    const bytes = decodeBase58(multibase.slice(1));
    if (bytes.length !== 34 || bytes[0] !== 0xed || bytes[1] !== 0x01) return null;
    return bytes.slice(2);
  } catch {
    return null;
  }
}

async function canonicalHash(document: JsonObject) {
  // @types/jsonld lacks the RDFC-1.0 options of jsonld 9.
  const canonize = jsonld.canonize as unknown as (input: unknown, options: object) => Promise<string>;
  const nquads = await canonize(document, {
    algorithm: "RDFC-1.0",
    format: "application/n-quads",
    documentLoader,
    // An undefined term is an error, not a silently dropped statement.
    safe: true,
  });
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(nquads)));
}

/**
 * The bytes that are signed: hash(proof options with the document's context) ‖ hash(document).
 * Ed25519Signature2020 (jsonld-signatures' `createVerifyData`) hashes the same two parts.
 */
async function hashData(document: JsonObject, options: JsonObject) {
  const { proof: _proof, ...unsecured } = document;
  const [optionsHash, documentHash] = await Promise.all([
    canonicalHash({ "@context": document["@context"], ...options }),
    canonicalHash(unsecured),
  ]);
  return Uint8Array.from([...optionsHash, ...documentHash]);
}

/** Signs `document` and returns it with `proof` as a one-element array. */
export async function sign(
  document: JsonObject,
  key: { privateKey: CryptoKey; verificationMethod: string },
  created: Date,
): Promise<JsonObject & { proof: DataIntegrityProof[] }> {
  const options = {
    type: "DataIntegrityProof",
    cryptosuite: "eddsa-rdfc-2022",
    created: xsdDateTime(created),
    verificationMethod: key.verificationMethod,
    proofPurpose: "assertionMethod",
  } as const;
  const data = await hashData(document, options);
  const signature = new Uint8Array(await crypto.subtle.sign("Ed25519", key.privateKey, data));
  return { ...document, proof: [{ ...options, proofValue: `z${encodeBase58(signature)}` }] };
}

/** The document's single eddsa-rdfc-2022 proof, or null when it has none or several. */
export function proofOf(document: JsonObject): DataIntegrityProof | null {
  const proofs = ([] as unknown[]).concat(document.proof ?? []);
  if (proofs.length !== 1) return null;
  const proof = proofs[0] as Partial<DataIntegrityProof> | null;
  if (
    !proof ||
    proof.type !== "DataIntegrityProof" ||
    proof.cryptosuite !== "eddsa-rdfc-2022" ||
    proof.proofPurpose !== "assertionMethod" ||
    typeof proof.verificationMethod !== "string" ||
    typeof proof.created !== "string" ||
    typeof proof.proofValue !== "string"
  )
    return null;
  return proof as DataIntegrityProof;
}

/** Whether the document's proof is a valid signature by `publicKey` (raw 32 bytes). */
export async function verifyProof(document: JsonObject, publicKey: Uint8Array) {
  const proof = proofOf(document);
  return proof ? verifySignature(document, proof, publicKey) : false;
}

/**
 * Whether `proof` (one proof of `document`, eddsa-rdfc-2022 or Ed25519Signature2020: both sign the
 * same hashes) carries a valid Ed25519 signature by `publicKey` over the document and its other
 * options. Which proofs and keys are acceptable is the caller's to decide.
 */
export async function verifySignature(
  document: JsonObject,
  proof: JsonObject & { proofValue: string },
  publicKey: Uint8Array,
) {
  if (!proof.proofValue.startsWith("z")) return false;
  try {
    const { proofValue, ...options } = proof;
    const signature = Uint8Array.from(decodeBase58(proofValue.slice(1)));
    const key = await crypto.subtle.importKey("raw", Uint8Array.from(publicKey), "Ed25519", false, ["verify"]);
    return await crypto.subtle.verify("Ed25519", key, signature, await hashData(document, options));
  } catch {
    // Canonicalisation refuses an undefined term or a malformed document: not verified.
    return false;
  }
}

/** An XML Schema dateTime in UTC without milliseconds, as credentials and proofs carry. */
export function xsdDateTime(date: Date) {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}
