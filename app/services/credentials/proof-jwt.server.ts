import { decode as decodeBase58, encode as encodeBase58 } from "base58-universal";

/**
 * OpenID4VCI's proof of possession (1.0, appendix F.1, decision 065): a JWT of type
 * `openid4vci-proof+jwt`, signed by the wallet's key, named by `kid` (a did:key, resolved here
 * from the DID itself) or given as `jwk`, over our credential issuer (`aud`), our `c_nonce`
 * (`nonce`) and a recent `iat`. Ed25519 (`EdDSA`) and P-256 (`ES256`) keys, checked with Web
 * Crypto. The holder is the key's did:key, whichever way the key was named.
 */

export const PROOF_ALGORITHMS = ["EdDSA", "ES256"] as const;
/** How far `iat` may be from our clock: a proof is made just before it is sent. */
const IAT_LEEWAY_SECONDS = 5 * 60;

type Jwk = { kty?: unknown; crv?: unknown; x?: unknown; y?: unknown; d?: unknown };
type Bytes = Uint8Array<ArrayBuffer>;
type Key = { kind: "Ed25519"; raw: Bytes } | { kind: "P-256"; raw: Bytes };
export type ProofOutcome =
  { holder: string; nonce: string } | { error: "invalid_proof" | "invalid_nonce"; description: string };

const refuse = (description: string): ProofOutcome => ({ error: "invalid_proof", description });

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

// Multicodec prefixes (varint) of the two key types a did:key may name here.
const ED25519_PREFIX = [0xed, 0x01];
const P256_PREFIX = [0x80, 0x24];

/** The key a `did:key` names (Ed25519 `z6Mk…`, P-256 `zDn…`, compressed), or null. */
export function keyOfDidKey(did: string): Key | null {
  const match = /^did:key:z([1-9A-HJ-NP-Za-km-z]+)$/.exec(did);
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

/** The key of a public JWK (OKP Ed25519 or EC P-256), or null; a JWK with a private part is refused. */
function keyOfJwk(jwk: Jwk): Key | null {
  if (jwk.d !== undefined || typeof jwk.x !== "string") return null;
  try {
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

/** The did:key of a key: the binding DID of the credential issued to it. */
export const holderDidOf = (key: Key) => didKeyOf(key.kind === "Ed25519" ? ED25519_PREFIX : P256_PREFIX, key.raw);

async function verifyWith(key: Key, alg: string, signature: Bytes, data: Bytes) {
  if (key.kind === "Ed25519") {
    if (alg !== "EdDSA" && alg !== "Ed25519") return false;
    const publicKey = await crypto.subtle.importKey("raw", key.raw, { name: "Ed25519" }, false, ["verify"]);
    return crypto.subtle.verify({ name: "Ed25519" }, publicKey, signature, data);
  }
  if (alg !== "ES256" || signature.length !== 64) return false;
  const point = decompressP256(key.raw);
  if (!point) return false;
  const publicKey = await crypto.subtle.importKey("raw", point, { name: "ECDSA", namedCurve: "P-256" }, false, [
    "verify",
  ]);
  return crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, publicKey, signature, data);
}

/**
 * Checks a `jwt` proof for our issuer and answers the holder's did:key and the nonce it signed
 * (whether that nonce is ours and fresh is the caller's to check, with its other reads).
 */
export async function verifyProofJwt(jwt: unknown, expected: { audience: string; now: Date }): Promise<ProofOutcome> {
  if (typeof jwt !== "string") return refuse("The proof must be a JWT.");
  const decoded = decodeJwt(jwt);
  if (!decoded) return refuse("The proof is not a JWT.");
  const { header, payload } = decoded;
  if (header.typ !== "openid4vci-proof+jwt") return refuse("The proof's typ must be openid4vci-proof+jwt.");
  if (typeof header.alg !== "string") return refuse("The proof names no alg.");
  if ((header.kid === undefined) === (header.jwk === undefined))
    return refuse("The proof must name its key by exactly one of kid or jwk.");
  if (header.x5c !== undefined || header.trust_chain !== undefined)
    return refuse("The proof must name its key by kid or jwk only.");

  let key: Key | null;
  if (typeof header.kid === "string") {
    // A did:key key: `did:key:X#X` (or the DID alone, which names its one key).
    const [did, fragment] = header.kid.split("#");
    key = did && (fragment === undefined || `did:key:${fragment}` === did) ? keyOfDidKey(did) : null;
    if (!key) return refuse("The proof's kid must be a did:key (Ed25519 or P-256) key.");
  } else {
    key = isObject(header.jwk) ? keyOfJwk(header.jwk) : null;
    if (!key) return refuse("The proof's jwk must be a public Ed25519 or P-256 key.");
  }

  const audiences = ([] as unknown[]).concat(payload.aud ?? []);
  if (!audiences.includes(expected.audience)) return refuse(`The proof's aud must be ${expected.audience}.`);
  const now = expected.now.getTime() / 1000;
  if (typeof payload.iat !== "number" || Math.abs(payload.iat - now) > IAT_LEEWAY_SECONDS)
    return refuse("The proof's iat must be the time it was made.");
  if (typeof payload.exp === "number" && payload.exp < now) return refuse("The proof has expired.");
  if (typeof payload.nonce !== "string" || !payload.nonce)
    return { error: "invalid_nonce", description: "The proof must sign a c_nonce from the nonce endpoint." };

  const valid = await verifyWith(
    key,
    header.alg,
    decoded.signature,
    new TextEncoder().encode(decoded.signingInput),
  ).catch(() => false);
  if (!valid) return refuse("The proof's signature is not its key's.");
  return { holder: holderDidOf(key), nonce: payload.nonce };
}
