import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ORIGIN } from "./helpers.ts";
import { credentialJson, dccVerify, issuedCredential, verified } from "./credentials-helpers.ts";

describe("Open Badges credentials", () => {
  it("issues a credential on acceptance that verifier-core verifies", async () => {
    const { credentialId } = await issuedCredential();
    const credential = await credentialJson(credentialId);
    const result = await dccVerify(credential);
    expect(result).toMatchObject(verified);
  });
});
