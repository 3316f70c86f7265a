import { decodeJwt, holderDidOf, keyOfDidKey, keyOfJwk, verifyJws, type CurveKey } from "./jws.server.ts";

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

export type ProofOutcome =
  { holder: string; nonce: string } | { error: "invalid_proof" | "invalid_nonce"; description: string };

const refuse = (description: string): ProofOutcome => ({ error: "invalid_proof", description });

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

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

  let key: CurveKey | null;
  if (typeof header.kid === "string") {
    // A did:key key: `did:key:X#X` (or the DID alone, which names its one key).
    const [did, fragment] = header.kid.split("#");
    key = did && (fragment === undefined || `did:key:${fragment}` === did) ? keyOfDidKey(did) : null;
    if (!key) return refuse("The proof's kid must be a did:key (Ed25519 or P-256) key.");
  } else {
    const jwk = isObject(header.jwk) ? keyOfJwk(header.jwk) : null;
    key = jwk?.kind === "RSA" ? null : jwk;
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

  const valid = await verifyJws(key, header.alg, decoded.signature, new TextEncoder().encode(decoded.signingInput));
  if (!valid) return refuse("The proof's signature is not its key's.");
  return { holder: holderDidOf(key), nonce: payload.nonce };
}
