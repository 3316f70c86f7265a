import { describe, expect, it } from "vitest";
import { OTHER_ADDRESS, SIGNATURE_MISMATCH, type ImportOutcome } from "#app/services/imports/import-result.ts";
import {
  CREDENTIAL_MAX_BYTES,
  CREDENTIAL_TOO_LARGE,
  IMPORT_MAX_BYTES,
  TOO_LARGE,
} from "#app/services/imports/read-input.server.ts";
import { dccVerifyWith, type Credential } from "./credentials-helpers.ts";
import {
  asFile,
  asText,
  bakedPng,
  bakedSvg,
  joseVerifies,
  outsideCredential,
  outsideJwt,
  outsideOpenBadge2,
  publish,
  RECIPIENT_EMAIL,
  verifyAsImport,
} from "./import-helpers.ts";

// Issue 32, "Import a badge or credential": every format is verified before anything is kept,
// each check in words; a failure of any check but expiry refuses with its reason. Credentials come
// from other issuers' libraries (tests/workers/outside-issuer.ts); the JSON-LD ones are also
// checked by verifier-core, and we accept exactly what it accepts (decision 069).

const reasonOf = (outcome: ImportOutcome) => (outcome.status === "refused" ? outcome.reason : null);
const statusUrl = () => `https://status.example/lists/${crypto.randomUUID()}`;

/** verifier-core's verdict on a JSON-LD credential, with the documents its issuer hosts. */
async function dccAccepts(credential: Credential, documents: Record<string, never> | object) {
  const dcc = await dccVerifyWith(credential, documents as never);
  // A credential without a status has no revocation step: not revoked.
  const revocation = (dcc.raw.log ?? []).find((entry) => entry.id === "revocation_status");
  const notRevoked = revocation === undefined ? true : revocation.valid === true;
  return { accepts: dcc.fatal.length === 0 && dcc.signature && notRevoked, notExpired: dcc.notExpired };
}

describe("W3C credentials (Open Badges 3.0, VC 2.0 and 1.1) as other issuers sign them", () => {
  it.each([
    ["VC 2.0, eddsa-rdfc-2022, did:key", { version: 2, suite: "eddsa-rdfc-2022" }, "Open Badges 3.0 / VC 2.0"],
    [
      "VC 2.0, Ed25519Signature2020, did:key",
      { version: 2, suite: "Ed25519Signature2020" },
      "Open Badges 3.0 / VC 2.0",
    ],
    [
      "VC 1.1, Ed25519Signature2020, did:key",
      { version: 1, suite: "Ed25519Signature2020" },
      "Verifiable Credential 1.1",
    ],
    ["VC 1.1, eddsa-rdfc-2022, did:key", { version: 1, suite: "eddsa-rdfc-2022" }, "Verifiable Credential 1.1"],
  ] as const)("accepts a %s credential, as verifier-core does", async (_case, request, format) => {
    // A VC 1.1 credential's Bitstring entry needs a context the DCC's loader does not bundle: none there.
    const status = request.version === 2 ? { status: { url: statusUrl() } } : {};
    const made = await outsideCredential({ ...request, email: RECIPIENT_EMAIL, ...status });
    const outcome = await verifyAsImport(asText(made.credential));
    expect(outcome).toMatchObject({ status: "verified", format, container: "JSON" });
    expect(outcome.checks.map((check) => [check.name, check.passed])).toEqual([
      ["Format", true],
      ["Issuer key", true],
      ["Signature", true],
      ["Revocation", true],
      ["Dates", true],
      ["Recipient", true],
    ]);
    expect(outcome.checks.find((check) => check.name === "Revocation")?.detail).toBe(
      request.version === 2
        ? "Not revoked: checked against the issuer's status list."
        : "It has no status list: its issuer cannot revoke it.",
    );
    expect(outcome.status !== "refused" && outcome.badge).toEqual({
      name: "Open Source Contributor",
      description: "Contributed to an open source project.",
      image: "https://badges.example/oss.png",
      issuerName: "Example Badge Issuer",
      issuerIdentity: "Issuer not identified",
      date: "2024-05-01",
      expires: null,
      type: "training",
    });
    expect(await dccAccepts(made.credential, made.documents)).toEqual({ accepts: true, notExpired: true });
  });

  it.each([false, true])(
    "reads a VC 1.1 credential's Status List 2021, whose signature verifier-core accepts (revoked: %s)",
    async (revoked) => {
      const made = await outsideCredential({
        version: 1,
        suite: "Ed25519Signature2020",
        email: RECIPIENT_EMAIL,
        status: { url: statusUrl(), revoked },
      });
      expect((made.credential.credentialStatus as { type: string }).type).toBe("StatusList2021Entry");
      await publish(made.documents);
      const outcome = await verifyAsImport(asText(made.credential));
      if (revoked) expect(reasonOf(outcome)).toBe("Revoked by the issuer.");
      else {
        expect(outcome).toMatchObject({ status: "verified", format: "Verifiable Credential 1.1" });
        expect(outcome.checks.find((check) => check.name === "Revocation")?.detail).toBe(
          "Not revoked: checked against the issuer's status list.",
        );
      }
      // verifier-core accepts the signature and reads no Status List 2021 (no revocation step in its
      // log): the bit we read is the one the issuer's own library set.
      expect(await dccAccepts(made.credential, made.documents)).toEqual({ accepts: true, notExpired: true });
      const dcc = await dccVerifyWith(made.credential as never, made.documents as never);
      expect((dcc.raw.log ?? []).map((entry) => entry.id)).not.toContain("revocation_status");
    },
  );

  it("names a did:web issuer by its host, its DID document read from the (stand-in) web", async () => {
    const made = await outsideCredential({ email: RECIPIENT_EMAIL, webHost: "badges.acme.example" });
    const outcome = await verifyAsImport(asText(made.credential));
    expect(outcome).toMatchObject({ status: "verified", badge: { issuerIdentity: "badges.acme.example" } });
    expect(outcome.checks.find((check) => check.name === "Issuer key")?.detail).toBe(
      "Listed in the DID document of did:web:badges.acme.example.",
    );
    expect((await dccAccepts(made.credential, made.documents)).accepts).toBe(true);
  });

  it("accepts a credential issued to one of the person's wallet DIDs, and no other DID", async () => {
    const did = "did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK";
    const made = await outsideCredential({ subjectDid: did });
    expect((await verifyAsImport(asText(made.credential), { holderDids: [did] })).status).toBe("verified");
    const elsewhere = await verifyAsImport(asText(made.credential), { holderDids: ["did:key:z6MkOther"] });
    expect(reasonOf(elsewhere)).toBe(`This credential was issued to ${did}, which is not one of your wallet DIDs.`);
  });

  it.each([
    ["VC 2.0", 2, "eddsa-rdfc-2022"],
    ["VC 1.1", 1, "Ed25519Signature2020"],
  ] as const)("refuses a tampered %s credential, as verifier-core does", async (_case, version, suite) => {
    const made = await outsideCredential({ version, suite, email: RECIPIENT_EMAIL });
    const tampered = { ...made.credential, name: "Chief Open Source Officer" };
    const outcome = await verifyAsImport(asText(tampered));
    expect(reasonOf(outcome)).toBe(SIGNATURE_MISMATCH);
    expect(outcome.checks.find((check) => check.name === "Signature")).toEqual({
      name: "Signature",
      passed: false,
      detail: SIGNATURE_MISMATCH,
    });
    expect((await dccAccepts(tampered, made.documents)).accepts).toBe(false);
  });

  it("refuses a credential issued to another e-mail address, though its signature holds", async () => {
    const made = await outsideCredential({ email: "someone.else@example.com" });
    expect(reasonOf(await verifyAsImport(asText(made.credential)))).toBe(OTHER_ADDRESS);
    // The match is on any of the person's addresses: with that one confirmed, it is theirs.
    const outcome = await verifyAsImport(asText(made.credential), {
      addresses: [RECIPIENT_EMAIL, "Someone.Else@example.com"],
    });
    expect(outcome.status).toBe("verified");
    expect((await dccAccepts(made.credential, made.documents)).accepts).toBe(true);
  });

  // Issue 43: another issuer's status list may be larger than ours (16 KB); it was refused as
  // unreadable over 256 KB. A lawful list of 1 MB (8,388,608 entries) is read up to its size.
  it.each([false, true])("reads another issuer's lawful 1 MB status list (revoked: %s)", async (revoked) => {
    const status = { url: statusUrl(), revoked, length: 1024 * 1024 * 8 };
    const made = await outsideCredential({ email: RECIPIENT_EMAIL, status });
    const outcome = await verifyAsImport(asText(made.credential));
    expect(outcome.checks.find((check) => check.name === "Revocation")?.detail).toBe(
      revoked ? "Revoked by the issuer." : "Not revoked: checked against the issuer's status list.",
    );
  });

  it("reads a did:web issuer's status list only on its own host (issue 43)", async () => {
    const listUrl = statusUrl();
    const made = await outsideCredential({
      email: RECIPIENT_EMAIL,
      webHost: "lists.acme.example",
      status: { url: listUrl },
    });
    const outcome = await verifyAsImport(asText(made.credential));
    expect(outcome.checks.find((check) => check.name === "Revocation")?.detail).toBe(
      "The status list is on status.example, not on the issuer's host lists.acme.example; it was not fetched.",
    );
    const onItsHost = await outsideCredential({
      email: RECIPIENT_EMAIL,
      webHost: "lists.acme.example",
      status: { url: `https://lists.acme.example/status/${crypto.randomUUID()}` },
    });
    expect((await verifyAsImport(asText(onItsHost.credential))).status).toBe("verified");
  });

  it("refuses a credential its issuer revoked on its status list, as verifier-core does", async () => {
    const made = await outsideCredential({ email: RECIPIENT_EMAIL, status: { url: statusUrl(), revoked: true } });
    const outcome = await verifyAsImport(asText(made.credential));
    expect(reasonOf(outcome)).toBe("Revoked by the issuer.");
    expect((await dccAccepts(made.credential, made.documents)).accepts).toBe(false);
  });

  it("refuses a credential whose status list cannot be read: its revocation is unknown", async () => {
    const made = await outsideCredential({ email: RECIPIENT_EMAIL, status: { url: statusUrl() } });
    const elsewhere = { ...made.credential };
    const unpublished = JSON.parse(JSON.stringify(made.credential)) as Credential;
    unpublished.credentialStatus.statusListCredential = "https://status.example/lists/missing";
    expect(elsewhere).toBeTruthy();
    const outcome = await verifyAsImport(asText(unpublished));
    // Changing the list's address breaks the signature first: nothing a forged credential names is read.
    expect(reasonOf(outcome)).toBe(SIGNATURE_MISMATCH);
  });

  it("keeps an expired credential possible (shown as Expired), as verifier-core accepts its signature", async () => {
    const made = await outsideCredential({ email: RECIPIENT_EMAIL, validUntil: "2025-01-31T00:00:00Z" });
    const outcome = await verifyAsImport(asText(made.credential));
    expect(outcome).toMatchObject({ status: "expired", badge: { expires: "2025-01-31" } });
    expect(outcome.checks.find((check) => check.name === "Dates")).toEqual({
      name: "Dates",
      passed: false,
      detail: "Expired on 2025-01-31.",
    });
    expect(await dccAccepts(made.credential, made.documents)).toEqual({ accepts: true, notExpired: false });
  });

  it("refuses a credential that is not valid yet", async () => {
    const made = await outsideCredential({ email: RECIPIENT_EMAIL, validFrom: "2099-01-01T00:00:00Z" });
    expect(reasonOf(await verifyAsImport(asText(made.credential)))).toBe("Not valid until 2099-01-01.");
  });

  it("refuses a credential without a proof, or with a proof it does not check, saying why", async () => {
    const made = await outsideCredential({ email: RECIPIENT_EMAIL });
    const { proof: _proof, ...unsigned } = made.credential;
    expect(reasonOf(await verifyAsImport(asText(unsigned)))).toBe("It carries no proof: nothing shows who issued it.");
    expect((await dccAccepts(unsigned, made.documents)).accepts).toBe(false);
    const otherSuite = {
      ...made.credential,
      proof: { ...(made.credential.proof as object), cryptosuite: "ecdsa-rdfc-2019" },
    };
    expect(reasonOf(await verifyAsImport(asText(otherSuite)))).toBe(
      "Its proof (ecdsa-rdfc-2019) is not one this app checks: eddsa-rdfc-2022 or Ed25519Signature2020.",
    );
  });
});

describe("VC-JWT, signed by jose", () => {
  it("accepts a VC-JWT whose did:key signed it, as jose does", async () => {
    const { token } = await outsideJwt({ email: RECIPIENT_EMAIL });
    const outcome = await verifyAsImport(asText(token));
    expect(outcome).toMatchObject({ status: "verified", format: "VC-JWT", container: "JWT" });
    expect(outcome.status !== "refused" && outcome.badge.name).toBe("Open Source Contributor");
    expect(await joseVerifies(token)).toMatchObject({ verified: true });
  });

  it("refuses a VC-JWT signed by another key than its issuer's, as jose does", async () => {
    const { token } = await outsideJwt({ email: RECIPIENT_EMAIL, signer: "other" });
    expect(reasonOf(await verifyAsImport(asText(token)))).toBe(SIGNATURE_MISMATCH);
    expect(await joseVerifies(token)).toMatchObject({ verified: false });
  });

  it.each([
    ["ES256, a P-256 did:key", { alg: "ES256" }],
    ["ES256, a did:web listing a P-256 JsonWebKey2020", { alg: "ES256", webHost: "p256.example" }],
    ["RS256, a did:web listing an RSA JsonWebKey2020", { alg: "RS256", webHost: "rsa.example" }],
    ["EdDSA, a did:web listing an Ed25519 JsonWebKey2020", { alg: "EdDSA", webHost: "okp.example" }],
  ] as const)("accepts a VC-JWT signed with %s, as jose does", async (_case, request) => {
    const { token, publicJwk } = await outsideJwt({ email: RECIPIENT_EMAIL, ...request });
    const outcome = await verifyAsImport(asText(token));
    expect(outcome).toMatchObject({ status: "verified", format: "VC-JWT" });
    expect(outcome.checks[0]).toMatchObject({
      name: "Format",
      detail: `A Verifiable Credential as a JWT, signed with ${request.alg}.`,
    });
    expect(outcome.status !== "refused" && outcome.badge.issuerIdentity).toBe(
      "webHost" in request ? request.webHost : "Issuer not identified",
    );
    expect(await joseVerifies(token, publicJwk)).toMatchObject({ verified: true });
  });

  it.each([
    ["ES256", { alg: "ES256" }],
    ["RS256", { alg: "RS256", webHost: "rsa-other.example" }],
  ] as const)("refuses a VC-JWT signed with %s by another key than its issuer's, as jose does", async (_c, request) => {
    const { token, publicJwk } = await outsideJwt({ email: RECIPIENT_EMAIL, signer: "other", ...request });
    expect(reasonOf(await verifyAsImport(asText(token)))).toBe(SIGNATURE_MISMATCH);
    expect(await joseVerifies(token, publicJwk)).toMatchObject({ verified: false });
  });

  it.each([
    ["another DID", "did:web:ox.ac.uk"],
    ["another DID with a name", { id: "did:web:ox.ac.uk", type: ["Profile"], name: "University of Oxford" }],
    ["a name and no id", { type: ["Profile"], name: "University of Oxford" }],
  ] as const)(
    "refuses a VC-JWT whose iss is not the credential's issuer (%s), though its signature holds",
    async (_c, claimed) => {
      // Issue 43, Medium 2: the token's signer (iss) must be the issuer the credential names.
      const { token, issuer } = await outsideJwt({ email: RECIPIENT_EMAIL, claimedIssuer: claimed });
      const outcome = await verifyAsImport(asText(token));
      expect(outcome.status).toBe("refused");
      expect(reasonOf(outcome)).toBe(`The token's signer (iss) ${issuer} is not the issuer the credential names.`);
      expect(outcome.checks.find((check) => check.name === "Issuer key")?.passed).toBe(false);
    },
  );

  it("refuses a VC-JWT whose header names another algorithm than its key's", async () => {
    // An RSA key's token relabelled ES256: the key decides the algorithm, never the header alone.
    const { token } = await outsideJwt({ email: RECIPIENT_EMAIL, alg: "RS256", webHost: "relabel.example" });
    const [, payload, signature] = token.split(".");
    const header = btoa(JSON.stringify({ alg: "ES256", typ: "JWT", kid: "did:web:relabel.example#key-1" }))
      .replace(/=+$/, "")
      .replace(/\+/g, "-")
      .replace(/\//g, "_");
    expect(reasonOf(await verifyAsImport(asText(`${header}.${payload}.${signature}`)))).toBe(SIGNATURE_MISMATCH);
  });

  it("refuses a VC-JWT signed with an algorithm this app does not check", async () => {
    const { token } = await outsideJwt({ email: RECIPIENT_EMAIL });
    const [, payload, signature] = token.split(".");
    const header = btoa(JSON.stringify({ alg: "HS256", typ: "JWT" })).replace(/=+$/, "");
    expect(reasonOf(await verifyAsImport(asText(`${header}.${payload}.${signature}`)))).toBe(
      "It is signed with HS256; this app checks EdDSA (Ed25519), ES256 (P-256) and RS256.",
    );
  });

  it("keeps an expired VC-JWT possible; refuses one for another address", async () => {
    const expired = await outsideJwt({ email: RECIPIENT_EMAIL, validUntil: "2025-06-30T00:00:00Z" });
    expect((await verifyAsImport(asText(expired.token))).status).toBe("expired");
    const other = await outsideJwt({ email: "someone.else@example.com" });
    expect(reasonOf(await verifyAsImport(asText(other.token)))).toBe(OTHER_ADDRESS);
  });
});

describe("Open Badges 2.0, shaped as 1EdTech's examples, their documents answered locally", () => {
  it("accepts a hosted assertion: the issuer's copy matches, its BadgeClass and profile read from their addresses", async () => {
    const { assertion } = await outsideOpenBadge2({ email: RECIPIENT_EMAIL, host: "hosted.example" });
    const outcome = await verifyAsImport(asText(assertion));
    expect(outcome).toMatchObject({ status: "verified", format: "Open Badges 2.0, hosted" });
    expect(outcome.checks.map((check) => [check.name, check.passed])).toEqual([
      ["Format", true],
      ["Hosted copy", true],
      ["Issuer", true],
      ["Revocation", true],
      ["Dates", true],
      ["Recipient", true],
    ]);
    expect(outcome.status !== "refused" && outcome.badge).toEqual({
      name: "Awesome Robotics Badge",
      description: "For doing awesome things with robots that people think is pretty great.",
      image: "https://hosted.example/robotics-badge.png",
      issuerName: "An Example Badge Issuer",
      issuerIdentity: "hosted.example",
      date: "2016-12-31",
      expires: null,
      type: "award",
    });
  });

  it("accepts a hosted assertion from its pasted address", async () => {
    const { assertion } = await outsideOpenBadge2({ email: RECIPIENT_EMAIL, host: "pasted.example" });
    const outcome = await verifyAsImport(asText(String(assertion!.id)));
    expect(outcome).toMatchObject({ status: "verified", container: "URL" });
  });

  it("keeps the 1EdTech example's expiry: expired in 2017, may be kept", async () => {
    const { assertion } = await outsideOpenBadge2({
      email: RECIPIENT_EMAIL,
      host: "expired.example",
      expires: "2017-06-30T23:59:59Z",
    });
    expect(await verifyAsImport(asText(assertion))).toMatchObject({
      status: "expired",
      badge: { expires: "2017-06-30" },
    });
  });

  it("refuses a hosted assertion that differs from its issuer's copy, or that its issuer revoked", async () => {
    const tampered = await outsideOpenBadge2({ email: RECIPIENT_EMAIL, host: "tampered.example", tamper: true });
    expect(reasonOf(await verifyAsImport(asText(tampered.assertion)))).toBe(
      "It does not match the copy its issuer hosts.",
    );
    const revoked = await outsideOpenBadge2({ email: RECIPIENT_EMAIL, host: "revoked.example", revoked: true });
    expect(reasonOf(await verifyAsImport(asText(revoked.assertion)))).toBe("Revoked by the issuer: Issued in error.");
  });

  it("refuses a hosted assertion for another address", async () => {
    const { assertion } = await outsideOpenBadge2({ email: "beth@example.org", host: "beth.example" });
    expect(reasonOf(await verifyAsImport(asText(assertion)))).toBe(OTHER_ADDRESS);
  });

  it("accepts a signed assertion: RS256 by the key its issuer's profile lists, not on its revocation list", async () => {
    const { token } = await outsideOpenBadge2({ kind: "signed", email: RECIPIENT_EMAIL, host: "signed.example" });
    const outcome = await verifyAsImport(asText(token));
    expect(outcome).toMatchObject({ status: "verified", format: "Open Badges 2.0, signed" });
    expect(outcome.checks.map((check) => [check.name, check.passed])).toEqual([
      ["Format", true],
      ["Issuer key", true],
      ["Signature", true],
      ["Revocation", true],
      ["Dates", true],
      ["Recipient", true],
    ]);
  });

  it("refuses a signed assertion whose content was changed, or that is on the revocation list", async () => {
    const tampered = await outsideOpenBadge2({
      kind: "signed",
      email: RECIPIENT_EMAIL,
      host: "s1.example",
      tamper: true,
    });
    expect(reasonOf(await verifyAsImport(asText(tampered.token)))).toBe(SIGNATURE_MISMATCH);
    const revoked = await outsideOpenBadge2({
      kind: "signed",
      email: RECIPIENT_EMAIL,
      host: "s2.example",
      revoked: true,
    });
    expect(reasonOf(await verifyAsImport(asText(revoked.token)))).toBe("Revoked by the issuer: Honor code violation");
  });
});

describe("baked images", () => {
  it.each([false, true])(
    "reads a hosted assertion baked in a PNG's iTXt chunk (compressed: %s)",
    async (compressed) => {
      const { assertion } = await outsideOpenBadge2({
        email: RECIPIENT_EMAIL,
        host: `png${Number(compressed)}.example`,
      });
      const png = await bakedPng(JSON.stringify(assertion), compressed);
      expect(await verifyAsImport(asFile(png, "badge.png"))).toMatchObject({ status: "verified", container: "PNG" });
    },
  );

  it("reads an Open Badges 3.0 credential baked in a PNG", async () => {
    const made = await outsideCredential({ email: RECIPIENT_EMAIL });
    const png = await bakedPng(JSON.stringify(made.credential));
    expect(await verifyAsImport(asFile(png))).toMatchObject({ status: "verified", format: "Open Badges 3.0 / VC 2.0" });
  });

  it("reads an SVG's openbadges:assertion: JSON in CDATA, or a JWS in its verify attribute", async () => {
    const hosted = await outsideOpenBadge2({ email: RECIPIENT_EMAIL, host: "svg.example" });
    const svg = await bakedSvg(JSON.stringify(hosted.assertion));
    expect(await verifyAsImport(asFile(svg, "badge.svg"))).toMatchObject({ status: "verified", container: "SVG" });
    const signed = await outsideOpenBadge2({ kind: "signed", email: RECIPIENT_EMAIL, host: "svg-signed.example" });
    const signedSvg = await bakedSvg(signed.token!, true);
    expect(await verifyAsImport(asFile(signedSvg))).toMatchObject({
      status: "verified",
      format: "Open Badges 2.0, signed",
    });
  });
});

describe("what cannot be imported says why", () => {
  it.each([
    [
      "a JSON object that is no badge",
      asText({ hello: "world" }),
      "This is neither an Open Badges assertion (2.0) nor a W3C Verifiable Credential (Open Badges 3.0).",
    ],
    [
      "a plain text",
      asText("my badge"),
      "This is not a badge or credential this app can read: upload an Open Badges image (PNG or SVG), a JSON credential or a JWT, or paste its JSON or address.",
    ],
    [
      "an http address",
      asText("http://example.org/badge.json"),
      "This is not a badge or credential this app can read: upload an Open Badges image (PNG or SVG), a JSON credential or a JWT, or paste its JSON or address.",
    ],
    ["an empty file", asFile(new Uint8Array(0)), "The file is empty."],
    [
      "an SVG with no badge",
      asFile('<svg xmlns="http://www.w3.org/2000/svg"></svg>'),
      "This image carries no Open Badges data (no openbadges:assertion): it is not a baked badge.",
    ],
  ])("refuses %s", async (_case, source, reason) => {
    const outcome = await verifyAsImport(source);
    expect(outcome).toMatchObject({ status: "refused", reason });
  });

  it("refuses a PNG without an openbadges chunk", async () => {
    const png = await bakedPng("{}");
    // The same image with its chunk's keyword changed: an ordinary PNG.
    const plain = new TextDecoder("latin1").decode(png).replace("openbadges", "commentsxx");
    const bytes = Uint8Array.from(plain, (c) => c.charCodeAt(0));
    expect(reasonOf(await verifyAsImport(asFile(bytes)))).toBe(
      "This image carries no Open Badges data (no 'openbadges' chunk): it is not a baked badge.",
    );
  });

  it("refuses anything over 5 MB before reading it", async () => {
    expect(reasonOf(await verifyAsImport(asFile(new Uint8Array(IMPORT_MAX_BYTES + 1))))).toBe(TOO_LARGE);
    expect(reasonOf(await verifyAsImport(asText(`{"a":"${"x".repeat(IMPORT_MAX_BYTES)}"}`)))).toBe(TOO_LARGE);
  });

  // Issue 43: a credential is at most 256 KB, as /verify takes it, however it comes; only an
  // image may be larger, by its picture. A 1 KB compressed chunk could inflate to 5 MB before.
  const oversized = `{"a":"${"x".repeat(CREDENTIAL_MAX_BYTES)}"}`;
  it.each([
    ["a pasted JSON", async () => asText(oversized)],
    ["a JSON file", async () => asFile(oversized, "badge.json")],
    ["a PNG's uncompressed chunk", async () => asFile(await bakedPng(oversized))],
    ["a PNG's compressed chunk", async () => asFile(await bakedPng(oversized, true))],
    ["an SVG's element", async () => asFile(await bakedSvg(oversized), "badge.svg")],
  ])("refuses a credential over 256 KB in %s, as /verify does", async (_case, source) => {
    expect(reasonOf(await verifyAsImport(await source()))).toBe(CREDENTIAL_TOO_LARGE);
  });

  // Issue 43: imported names pass the rules of a typed title (decision 011), and hold no zero-width
  // character; such a badge is refused, as the typed title would be, even with a valid signature.
  it.each([
    [
      "a badge name with a zero-width space",
      { name: "Open\u200B Source Contributor" },
      "The badge's name cannot contain zero-width characters",
    ],
    [
      "a badge name with a right-to-left override",
      { name: "Open \u202Erotubirtnoc" },
      "The badge's name cannot contain text direction override characters",
    ],
    [
      "an issuer name with a control character",
      { issuerName: "Example\u0007 Issuer" },
      "The issuer's name cannot contain control characters",
    ],
    [
      "an issuer name with a zero-width joiner",
      { issuerName: "University of\u200D Oxford" },
      "The issuer's name cannot contain zero-width characters",
    ],
    [
      "names over a title's 200 characters",
      { name: "A".repeat(190) },
      "The badge's name and its issuer's are longer than 200 characters together",
    ],
  ])("refuses %s, whose signature holds", async (_case, names, reason) => {
    const made = await outsideCredential({ email: RECIPIENT_EMAIL, ...names });
    expect(reasonOf(await verifyAsImport(asText(made.credential)))).toContain(reason);
  });

  it("reads another host's document only within the outside cap, and names what it could not read", async () => {
    await publish({
      "https://big.example/badge.json": {
        status: 200,
        contentType: "application/json",
        body: JSON.stringify({ padding: "x".repeat(600 * 1024) }),
      },
    });
    expect(reasonOf(await verifyAsImport(asText("https://big.example/badge.json")))).toBe(
      "The credential could not be read from big.example: larger than 512 KB.",
    );
    expect(reasonOf(await verifyAsImport(asText("https://nowhere.example/badge.json")))).toBe(
      "The credential could not be read from nowhere.example: not found (outside production, only documents stored at /dev/web.json are read).",
    );
  });
});
