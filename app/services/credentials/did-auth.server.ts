import { ED25519_2020_CONTEXT, VC_V1_CONTEXT, VC_V2_CONTEXT } from "./contexts.server.ts";
import { publicKeyFromMultibase, verifySignature, type JsonObject } from "./data-integrity.server.ts";
import type { AppEnv } from "#app/utils/env.server.ts";
import type { Issuing } from "./issuer.server.ts";
import { listedKey, resolveHolderDid } from "./did-web.server.ts";
import { verifierFor } from "./verify.server.ts";

/**
 * DIDAuth as the Learner Credential Wallet does it (decision 064): a VerifiablePresentation whose
 * `holder` is the wallet's DID, signed by one of that DID's keys for `authentication` over the
 * challenge we handed out (and our host as `domain`, when the wallet names one). Proofs in
 * Ed25519Signature2020 (what the wallet signs with) or eddsa-rdfc-2022; `did:key` DIDs, resolved
 * here from the DID itself, and `did:web` DIDs, whose document is read (in production from the
 * web); VC 1.1 and 2.0 presentations, their contexts bundled, never fetched.
 */

export type DidAuthOutcome = { holder: string } | { refused: string };

const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The public key a `did:key` verification method names, when the method is the DID's own key:
 * `did:key:{multibase}#{multibase}`, an Ed25519 key (multicodec 0xed01), as the did:key method
 * resolves it (both as Ed25519VerificationKey2020 and as Multikey). Anything else is no key of it.
 */
export function didKeyPublicKey(did: string, verificationMethod: string) {
  const match = /^did:key:(z[1-9A-HJ-NP-Za-km-z]+)#(z[1-9A-HJ-NP-Za-km-z]+)$/.exec(verificationMethod);
  if (!match || match[1] !== match[2] || `did:key:${match[1]}` !== did) return null;
  return publicKeyFromMultibase(match[1]!);
}

/**
 * Why `presentation` does not prove that its holder answers `challenge`, or who the holder is.
 * A `did:web` holder's DID document is read with `resolveWeb` (one outside read).
 */
export async function verifyDidAuth(
  presentation: unknown,
  expected: { challenge: string; domains: readonly string[] },
  resolveWeb: (did: string) => Promise<JsonObject | string>,
): Promise<DidAuthOutcome> {
  if (!isObject(presentation)) return { refused: "The request is not a verifiable presentation." };
  const contexts = ([] as unknown[]).concat(presentation["@context"] ?? []);
  const types = ([] as unknown[]).concat(presentation.type ?? []);
  if (!(contexts[0] === VC_V1_CONTEXT || contexts[0] === VC_V2_CONTEXT) || !types.includes("VerifiablePresentation"))
    return { refused: "The request is not a verifiable presentation." };
  const holder = isObject(presentation.holder) ? presentation.holder.id : presentation.holder;
  if (typeof holder !== "string" || !holder.startsWith("did:"))
    return { refused: "The presentation names no holder DID." };
  if (!holder.startsWith("did:key:") && !holder.startsWith("did:web:"))
    return { refused: "Only did:key and did:web holders are supported." };

  const proofs = ([] as unknown[]).concat(presentation.proof ?? []);
  const proof = proofs.length === 1 && isObject(proofs[0]) ? proofs[0] : null;
  if (!proof) return { refused: "The presentation must carry exactly one proof." };
  const suite =
    proof.type === "Ed25519Signature2020"
      ? "Ed25519Signature2020"
      : proof.type === "DataIntegrityProof" && proof.cryptosuite === "eddsa-rdfc-2022"
        ? "eddsa-rdfc-2022"
        : null;
  if (!suite) return { refused: "Unsupported proof: Ed25519Signature2020 or eddsa-rdfc-2022 only." };
  // jsonld-signatures refuses an Ed25519Signature2020 proof whose context the document lacks.
  if (suite === "Ed25519Signature2020" && !contexts.includes(ED25519_2020_CONTEXT))
    return { refused: "The presentation lacks the Ed25519Signature2020 context." };
  if (proof.proofPurpose !== "authentication") return { refused: "The proof's purpose is not authentication." };
  if (proof.challenge !== expected.challenge)
    return { refused: "The proof does not answer this exchange's challenge." };
  if (proof.domain !== undefined && !(typeof proof.domain === "string" && expected.domains.includes(proof.domain)))
    return { refused: "The proof is for another domain." };
  if (typeof proof.proofValue !== "string" || typeof proof.verificationMethod !== "string")
    return { refused: "The proof is incomplete." };

  const publicKey = await holderKey(holder, proof.verificationMethod, resolveWeb);
  if (typeof publicKey === "string") return { refused: publicKey };
  if (!publicKey) return { refused: "The proof's key is not one the holder's DID lists." };
  const signed = await verifySignature(presentation, { ...proof, proofValue: proof.proofValue }, publicKey);
  return signed ? { holder } : { refused: "The presentation's signature does not verify." };
}

/**
 * The key the holder's DID lists for authentication under `verificationMethod`: a did:key's own,
 * or one its did:web document lists (read only when the method is the DID's own); or why the
 * document could not be read.
 */
async function holderKey(
  holder: string,
  verificationMethod: string,
  resolveWeb: (did: string) => Promise<JsonObject | string>,
): Promise<Uint8Array | string | null> {
  if (holder.startsWith("did:key:")) return didKeyPublicKey(holder, verificationMethod);
  if (!verificationMethod.startsWith(`${holder}#`)) return null;
  const document = await resolveWeb(holder);
  if (typeof document === "string") return document;
  if (document.id !== holder) return "The holder's DID document is for another DID.";
  return listedKey(document, verificationMethod, "authentication");
}

/**
 * A wallet's DIDAuth to one of our exchanges: over its `challenge`, for our host (or origin) as
 * `domain` when one is named; a did:web holder's document read from the web in production, from
 * the dev stand-in elsewhere.
 */
export function verifyWalletDidAuth(
  { env, issuing }: { env: Pick<AppEnv, "ENVIRONMENT">; issuing: Issuing },
  presentation: unknown,
  challenge: string,
) {
  const resolver = verifierFor(issuing, env.ENVIRONMENT);
  return verifyDidAuth(presentation, { challenge, domains: [new URL(issuing.origin).host, issuing.origin] }, (did) =>
    resolveHolderDid(resolver, did),
  );
}
