import { decode as decodeBase58, encode as encodeBase58 } from "base58-universal";

/**
 * Compact JWS as other parties sign them: a wallet's OpenID4VCI proof (proof-jwt.server.ts) and
 * an imported VC-JWT (imports/w3c.server.ts). Keys come from a did:key, a Multikey or a public
 * JWK: Ed25519 (`EdDSA`), P-256 (`ES256`) and, from a JWK only, RSA of at least 2048 bits
 * (`RS256`). Everything is checked with Web Crypto.
 */

type Jwk = { kty?: unknown; crv?: unknown; x?: unknown; y?: unknown; d?: unknown; n?: unknown; e?: unknown };
type Bytes = Uint8Array<ArrayBuffer>;
export type JwsKey =
  | { kind: "Ed25519"; raw: Bytes }
  | { kind: "P-256"; raw: Bytes }
  | { kind: "RSA"; jwk: { kty: "RSA"; n: string; e: string } };
/** The keys a did:key or a Multikey names: a wallet's (a holder's DID is one). */
export type CurveKey = Exclude<JwsKey, { kind: "RSA" }>;

const RSA_MIN_MODULUS_BYTES = 256;

export function base64UrlDecode(text: string): Bytes {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

export function base64UrlEncode(bytes: Uint8Array) {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A compact JWT's header and payload, unverified; null when it is not one. */
export function decodeJwt(jwt: string) {
  const parts = jwt.split(".");
  if (parts.length !== 3) return null;
  try {
    const header: unknown = JSON.parse(new TextDecoder().decode(base64UrlDecode(parts[0]!)));
    const payload: unknown = JSON.parse(new TextDecoder().decode(base64UrlDecode(parts[1]!)));
    if (!isObject(header) || !isObject(payload)) return null;
    return { header, payload, signingInput: `${parts[0]}.${parts[1]}`, signature: base64UrlDecode(parts[2]!) };
  } catch {
    return null;
  }
}

// Multicodec prefixes (varint) of the two key types a did:key or Multikey may name here.
const ED25519_PREFIX = [0xed, 0x01];
const P256_PREFIX = [0x80, 0x24];

/** The key of a multibase Multikey value (Ed25519 `z6Mk…`, compressed P-256 `zDn…`), or null. */
export function keyOfMultibase(multibase: string): CurveKey | null {
  const match = /^z([1-9A-HJ-NP-Za-km-z]+)$/.exec(multibase);
  if (!match) return null;
  let bytes: Bytes;
  try {
    bytes = Uint8Array.from(decodeBase58(match[1]!));
  } catch {
    return null;
  }
  if (bytes.length === 34 && bytes[0] === ED25519_PREFIX[0] && bytes[1] === ED25519_PREFIX[1])
    return { kind: "Ed25519", raw: bytes.slice(2) };
  if (bytes.length === 35 && bytes[0] === P256_PREFIX[0] && bytes[1] === P256_PREFIX[1] && bytes[2]! >> 1 === 1)
    return { kind: "P-256", raw: bytes.slice(2) };
  return null;
}

/** The key a `did:key` names, or null. */
export const keyOfDidKey = (did: string) => (did.startsWith("did:key:") ? keyOfMultibase(did.slice(8)) : null);

const didKeyOf = (prefix: number[], raw: Uint8Array) =>
  `did:key:z${encodeBase58(Uint8Array.from([...prefix, ...raw]))}`;

// P-256: y² = x³ - 3x + b over p (FIPS 186-4), to compress and decompress public points.
const P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
const B = 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn;
const toBigInt = (bytes: Uint8Array) =>
  BigInt(`0x${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("") || "0"}`);
const toBytes32 = (value: bigint) =>
  Uint8Array.from(value.toString(16).padStart(64, "0").match(/../g)!, (h) => parseInt(h, 16));
function modPow(base: bigint, exponent: bigint, modulus: bigint) {
  let result = 1n;
  base %= modulus;
  for (; exponent > 0n; exponent >>= 1n) {
    if (exponent & 1n) result = (result * base) % modulus;
    base = (base * base) % modulus;
  }
  return result;
}
/** The uncompressed point (0x04 ‖ x ‖ y) of a compressed P-256 key, or null when x is on no point. */
function decompressP256(compressed: Bytes): Bytes | null {
  const x = toBigInt(compressed.slice(1));
  if (x >= P) return null;
  const ySquared = (((x * x * x - 3n * x + B) % P) + P) % P;
  let y = modPow(ySquared, (P + 1n) / 4n, P);
  if ((y * y) % P !== ySquared) return null;
  if (Number(y & 1n) !== (compressed[0]! & 1)) y = P - y;
  return Uint8Array.from([0x04, ...toBytes32(x), ...toBytes32(y)]);
}

/** The key of a public JWK (OKP Ed25519, EC P-256 or RSA), or null; a JWK with a private part is refused. */
export function keyOfJwk(jwk: Jwk): JwsKey | null {
  if (jwk.d !== undefined) return null;
  try {
    if (jwk.kty === "RSA" && typeof jwk.n === "string" && typeof jwk.e === "string") {
      const modulus = base64UrlDecode(jwk.n);
      const significant = modulus[0] === 0 ? modulus.length - 1 : modulus.length;
      return significant >= RSA_MIN_MODULUS_BYTES ? { kind: "RSA", jwk: { kty: "RSA", n: jwk.n, e: jwk.e } } : null;
    }
    if (typeof jwk.x !== "string") return null;
    const x = base64UrlDecode(jwk.x);
    if (jwk.kty === "OKP" && jwk.crv === "Ed25519" && x.length === 32) return { kind: "Ed25519", raw: x };
    if (jwk.kty === "EC" && jwk.crv === "P-256" && typeof jwk.y === "string" && x.length === 32) {
      const y = base64UrlDecode(jwk.y);
      if (y.length !== 32) return null;
      const compressed = Uint8Array.from([0x02 | (y[31]! & 1), ...x]);
      // The point must be on the curve: its compressed form decompresses to the same y.
      const point = decompressP256(compressed);
      if (!point || toBigInt(point.slice(33)) !== toBigInt(y)) return null;
      return { kind: "P-256", raw: compressed };
    }
  } catch {
    return null;
  }
  return null;
}

/** The did:key of an Ed25519 or P-256 key: the binding DID of a credential issued to it. */
export const holderDidOf = (key: CurveKey) => didKeyOf(key.kind === "Ed25519" ? ED25519_PREFIX : P256_PREFIX, key.raw);

/** Whether `signature` is `key`'s over `data` with `alg`, the algorithm the key's kind signs with. */
export async function verifyJws(key: JwsKey, alg: unknown, signature: Bytes, data: Bytes) {
  try {
    if (key.kind === "Ed25519") {
      if (alg !== "EdDSA" && alg !== "Ed25519") return false;
      const publicKey = await crypto.subtle.importKey("raw", key.raw, { name: "Ed25519" }, false, ["verify"]);
      return await crypto.subtle.verify({ name: "Ed25519" }, publicKey, signature, data);
    }
    if (key.kind === "RSA") {
      if (alg !== "RS256") return false;
      const algorithm = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" };
      const publicKey = await crypto.subtle.importKey("jwk", key.jwk, algorithm, false, ["verify"]);
      return await crypto.subtle.verify(algorithm, publicKey, signature, data);
    }
    if (alg !== "ES256" || signature.length !== 64) return false;
    const point = decompressP256(key.raw);
    if (!point) return false;
    const publicKey = await crypto.subtle.importKey("raw", point, { name: "ECDSA", namedCurve: "P-256" }, false, [
      "verify",
    ]);
    return await crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, publicKey, signature, data);
  } catch {
    return false;
  }
}
