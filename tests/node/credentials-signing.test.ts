import { describe, expect, it } from "vitest";
import { sign, verifyProof, type JsonObject } from "#app/services/credentials/data-integrity.server.ts";
import { ed25519FromSeed } from "#app/services/credentials/keys.server.ts";
import { publicKeyMultibase } from "#app/services/credentials/data-integrity.server.ts";
import vector from "../fixtures/ob3/test-vector.json";
import signedExample from "../fixtures/ob3/test-vector-credential.json";

// 1EdTech's known-answer vector (Open Badges 3.0 implementation guide, Linked Data Proof
// example): the same key, credential and proof creation time must give exactly its proofValue.
// This pins the canonicalisation (RDFC-1.0 over the bundled contexts) and the hashing order.

const fromHex = (hex: string) => Uint8Array.from(hex.match(/../g)!, (byte) => parseInt(byte, 16));

describe("eddsa-rdfc-2022 signing", () => {
  it("reproduces 1EdTech's known-answer proofValue", async () => {
    const { privateKey, publicKey } = await ed25519FromSeed(fromHex(vector.secretKeyHex.slice(0, 64)));
    expect(publicKeyMultibase(publicKey)).toBe(vector.publicKeyMultibase);
    const { proof: _proof, ...input } = signedExample as JsonObject;
    const signed = await sign(
      input,
      { privateKey, verificationMethod: vector.verificationMethod },
      new Date(vector.proofCreated),
    );
    expect(signed.proof).toHaveLength(1);
    expect(signed.proof[0]!.proofValue).toBe(vector.expectedProofValue);
    expect(await verifyProof(signed, publicKey)).toBe(true);
    // 1EdTech's own signed example verifies too (its proof is an object, not an array).
    expect(await verifyProof(signedExample as JsonObject, publicKey)).toBe(true);
  });

  it("refuses a changed byte and an undefined term", async () => {
    const { publicKey } = await ed25519FromSeed(fromHex(vector.secretKeyHex.slice(0, 64)));
    const changed = structuredClone(signedExample) as JsonObject & { name: string };
    changed.name = "Teamwork Badgf";
    expect(await verifyProof(changed, publicKey)).toBe(false);
    const undefinedTerm = { ...structuredClone(signedExample), inventedTerm: "x" } as JsonObject;
    expect(await verifyProof(undefinedTerm, publicKey)).toBe(false);
  });
});
