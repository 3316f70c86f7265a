// Badges and credentials as other issuers make them, with libraries nobody on this team wrote and
// keys made afresh for each one: W3C credentials by the Digital Credentials Consortium's
// `@digitalcredentials/vc` (Ed25519Signature2020, or Data Integrity eddsa-rdfc-2022) with a
// did:key or a did:web issuer and a Bitstring Status List from
// `@digitalcredentials/vc-bitstring-status-list`; a VC-JWT and Open Badges 2.0 signed assertions
// (RS256 JWS) by `jose`; Open Badges 2.0 documents shaped as 1EdTech's published examples. Node
// only: the Workers tests reach it through tests/workers/outside-issuer.ts, `npm run bench` calls it.
import { createHash, randomUUID } from "node:crypto";
import { crc32, deflateSync } from "node:zlib";

const STATUS_LIST_LENGTH = 131_072;
const OB3_CONTEXT = "https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json";
const ED25519_2020_CONTEXT = "https://w3id.org/security/suites/ed25519-2020/v1";
const VC1 = "https://www.w3.org/2018/credentials/v1";
const VC2 = "https://www.w3.org/ns/credentials/v2";
const STATUS_LIST_2021_CONTEXT = "https://w3id.org/vc/status-list/2021/v1";

const sha256Identity = (email, salt) =>
  `sha256$${createHash("sha256")
    .update(email + salt)
    .digest("hex")}`;
const json = (body) => ({ status: 200, contentType: "application/json", body: JSON.stringify(body) });

export async function outsideIssuer() {
  const vc = await import("@digitalcredentials/vc");
  const { Ed25519Signature2020 } = await import("@digitalcredentials/ed25519-signature-2020");
  const { Ed25519VerificationKey2020 } = await import("@digitalcredentials/ed25519-verification-key-2020");
  const didKey = await import("@digitalcredentials/did-method-key");
  const { DataIntegrityProof } = await import("@digitalcredentials/data-integrity");
  const { cryptosuite } = await import("@digitalcredentials/eddsa-rdfc-2022-cryptosuite");
  const { securityLoader } = await import("@digitalcredentials/security-document-loader");
  const statusList = await import("@digitalcredentials/vc-bitstring-status-list");
  const jose = await import("jose");
  const { encode: encodeBase58 } = await import("base58-universal");
  const { PNG } = (await import("pngjs")).default;
  const documentLoader = securityLoader({ fetchRemoteContexts: false }).build();
  const driver = didKey.driver();
  driver.use({ multibaseMultikeyHeader: "z6Mk", fromMultibase: Ed25519VerificationKey2020.from });

  /** An issuer: a fresh did:key, or a did:web on `webHost` with its DID document to publish. */
  async function mintIssuer(webHost) {
    if (webHost) {
      const did = `did:web:${webHost}`;
      const key = await Ed25519VerificationKey2020.generate({ id: `${did}#key-1`, controller: did });
      const didDocument = {
        "@context": ["https://www.w3.org/ns/did/v1", ED25519_2020_CONTEXT],
        id: did,
        verificationMethod: [key.export({ publicKey: true, includeContext: false })],
        assertionMethod: [key.id],
      };
      return { did, key, documents: { [`https://${webHost}/.well-known/did.json`]: json(didDocument) } };
    }
    const key = await Ed25519VerificationKey2020.generate();
    const { didDocument, methodFor } = await driver.fromKeyPair({ verificationKeyPair: key });
    const { id, controller } = methodFor({ purpose: "assertionMethod" });
    Object.assign(key, { id, controller });
    return { did: didDocument.id, key, documents: {} };
  }

  const suiteFor = (suite, key) =>
    suite === "Ed25519Signature2020"
      ? new Ed25519Signature2020({ key })
      : new DataIntegrityProof({ signer: { ...key.signer(), algorithm: "Ed25519" }, cryptosuite });

  /**
   * An Open Badges 3.0 AchievementCredential (VC 2.0) or a VC 1.1 credential of the same shape,
   * signed; with `status`, its status list (index 7, set when `revoked`) signed too: a Bitstring
   * Status List for VC 2.0, a Status List 2021 for VC 1.1.
   */
  async function credential({
    version = 2,
    suite = "eddsa-rdfc-2022",
    email,
    salt = "pepper",
    subjectDid,
    validFrom = "2024-05-01T00:00:00Z",
    validUntil,
    status,
    webHost,
    achievementType = "Certificate",
    name = "Open Source Contributor",
    issuerName = "Example Badge Issuer",
  }) {
    const issuer = await mintIssuer(webHost);
    const subject = {
      ...(subjectDid ? { id: subjectDid } : {}),
      type: ["AchievementSubject"],
      ...(email
        ? {
            identifier: [
              {
                type: "IdentityObject",
                identityHash: sha256Identity(email, salt),
                identityType: "emailAddress",
                hashed: true,
                salt,
              },
            ],
          }
        : {}),
      achievement: {
        id: "https://badges.example/achievements/oss",
        type: ["Achievement"],
        achievementType,
        name,
        description: "Contributed to an open source project.",
        criteria: { narrative: "Merged a pull request." },
        image: { id: "https://badges.example/oss.png", type: "Image" },
      },
    };
    const unsigned = {
      "@context": [
        version === 2 ? VC2 : VC1,
        OB3_CONTEXT,
        ...(suite === "Ed25519Signature2020" ? [ED25519_2020_CONTEXT] : []),
      ],
      id: `urn:uuid:${randomUUID()}`,
      type: ["VerifiableCredential", "OpenBadgeCredential"],
      issuer: { id: issuer.did, type: ["Profile"], name: issuerName },
      name,
      ...(version === 2
        ? { validFrom, ...(validUntil ? { validUntil } : {}) }
        : { issuanceDate: validFrom, ...(validUntil ? { expirationDate: validUntil } : {}) }),
      credentialSubject: subject,
    };
    const documents = { ...issuer.documents };
    const revokedLater = {};
    if (status && version === 1) {
      // A VC 1.1 credential's list is a Status List 2021 (its context bundled by the DCC's loader),
      // its bits as the Bitstring library encodes them, without the multibase prefix.
      unsigned["@context"].push(STATUS_LIST_2021_CONTEXT);
      unsigned.credentialStatus = {
        id: `${status.url}#7`,
        type: "StatusList2021Entry",
        statusPurpose: "revocation",
        statusListIndex: "7",
        statusListCredential: status.url,
      };
      const list2021 = async (revoked) => {
        const list = await statusList.createList({ length: STATUS_LIST_LENGTH });
        if (revoked) list.setStatus(7, true);
        const listCredential = {
          "@context": [VC1, STATUS_LIST_2021_CONTEXT, ED25519_2020_CONTEXT],
          id: status.url,
          type: ["VerifiableCredential", "StatusList2021Credential"],
          issuer: issuer.did,
          issuanceDate: validFrom,
          credentialSubject: {
            id: `${status.url}#list`,
            type: "StatusList2021",
            statusPurpose: "revocation",
            encodedList: (await list.encode()).slice(1),
          },
        };
        return json(
          await vc.issue({
            credential: listCredential,
            suite: suiteFor("Ed25519Signature2020", issuer.key),
            documentLoader,
          }),
        );
      };
      documents[status.url] = await list2021(status.revoked);
      revokedLater[status.url] = await list2021(true);
    } else if (status) {
      unsigned.credentialStatus = {
        id: `${status.url}#7`,
        type: "BitstringStatusListEntry",
        statusPurpose: "revocation",
        statusListIndex: "7",
        statusListCredential: status.url,
      };
      const list = await statusList.createList({ length: status.length ?? STATUS_LIST_LENGTH });
      if (status.revoked) list.setStatus(7, true);
      const listCredential = await statusList.createCredential({ id: status.url, list, statusPurpose: "revocation" });
      listCredential.issuer = issuer.did;
      listCredential.validFrom = validFrom;
      const signedList = await vc.issue({
        credential: listCredential,
        suite: suiteFor("eddsa-rdfc-2022", issuer.key),
        documentLoader,
      });
      documents[status.url] = json(signedList);
      // The same list, signed by the same issuer, once it has revoked this credential: to publish later.
      list.setStatus(7, true);
      const revokedCredential = await statusList.createCredential({
        id: status.url,
        list,
        statusPurpose: "revocation",
      });
      revokedCredential.issuer = issuer.did;
      revokedCredential.validFrom = validFrom;
      revokedLater[status.url] = json(
        await vc.issue({
          credential: revokedCredential,
          suite: suiteFor("eddsa-rdfc-2022", issuer.key),
          documentLoader,
        }),
      );
    }
    const signed = await vc.issue({ credential: unsigned, suite: suiteFor(suite, issuer.key), documentLoader });
    return { credential: signed, issuer: issuer.did, documents, revokedLater };
  }

  /**
   * A VC-JWT (VC Data Model 1.1's JWT encoding) signed by `jose`: with EdDSA by a fresh Ed25519
   * did:key (the default); with ES256 by a fresh P-256 did:key; or, with `webHost`, by a did:web
   * whose DID document lists the key as a JsonWebKey2020 (the only way RS256 keys are published).
   */
  async function jwt({ email, salt = "pepper", validUntil, signer = "issuer", alg = "EdDSA", webHost, claimedIssuer }) {
    const { credential: shaped } = await credential({ version: 1, email, salt, validUntil });
    const { proof: _proof, ...claims } = shaped;
    const { privateKey, publicJwk } = await joseKeyPair(alg);
    const did = webHost ? `did:web:${webHost}` : didKeyOfJwk(publicJwk);
    const kid = webHost ? `${did}#key-1` : `${did}#${did.slice("did:key:".length)}`;
    const documents = webHost
      ? {
          [`https://${webHost}/.well-known/did.json`]: json({
            "@context": ["https://www.w3.org/ns/did/v1", "https://w3id.org/security/suites/jws-2020/v1"],
            id: did,
            verificationMethod: [{ id: kid, type: "JsonWebKey2020", controller: did, publicKeyJwk: publicJwk }],
            assertionMethod: [kid],
          }),
        }
      : {};
    // `claimedIssuer`: the credential names another issuer than the token's `iss` (a forgery's shape).
    claims.issuer = claimedIssuer ?? did;
    const other = signer === "issuer" ? privateKey : (await joseKeyPair(alg)).privateKey;
    const builder = new jose.SignJWT({ vc: claims })
      .setProtectedHeader({ alg, typ: "JWT", kid })
      .setIssuer(did)
      .setJti(claims.id)
      .setNotBefore(Math.floor(Date.parse(claims.issuanceDate) / 1000));
    if (validUntil) builder.setExpirationTime(Math.floor(Date.parse(validUntil) / 1000));
    return { token: await builder.sign(other), issuer: did, documents, publicJwk };
  }

  async function joseKeyPair(alg) {
    const { publicKey, privateKey } = await jose.generateKeyPair(alg, { extractable: true, modulusLength: 2048 });
    const { kty, crv, x, y, n, e } = await jose.exportJWK(publicKey);
    return { privateKey, publicJwk: JSON.parse(JSON.stringify({ kty, crv, x, y, n, e })) };
  }

  /** The did:key of an Ed25519 or P-256 public JWK (multicodec 0xed / 0x1200, the P-256 point compressed). */
  function didKeyOfJwk({ crv, x, y }) {
    const xBytes = [...Buffer.from(x, "base64url")];
    const bytes =
      crv === "Ed25519"
        ? [0xed, 0x01, ...xBytes]
        : [0x80, 0x24, 0x02 | (Buffer.from(y, "base64url")[31] & 1), ...xBytes];
    return `did:key:z${encodeBase58(Uint8Array.from(bytes))}`;
  }

  /** Whether `jose` accepts a VC-JWT with `jwk`, or the Ed25519 did:key's own key (an outside check of ours). */
  async function verifyJwt({ token, jwk }) {
    const { iss } = jose.decodeJwt(token);
    const { alg } = jose.decodeProtectedHeader(token);
    const x = jwk ? undefined : Buffer.from(decodeMultikey(iss.slice("did:key:".length))).toString("base64url");
    const key = await jose.importJWK(jwk ?? { kty: "OKP", crv: "Ed25519", x }, alg);
    try {
      await jose.jwtVerify(token, key, { currentDate: new Date() });
      return { verified: true };
    } catch (error) {
      return { verified: false, error: String(error.code ?? error.message) };
    }
  }

  /**
   * Open Badges 2.0 documents shaped as 1EdTech's examples (examples/index.md of the Open Badges
   * 2.0 specification: Assertion, BadgeClass, issuer Profile, CryptographicKey, RevocationList),
   * the recipient hashed for `email` with the examples' salt, hosted at `host`.
   */
  async function openBadge2({
    kind = "hosted",
    email,
    host = "example.org",
    expires,
    revoked = false,
    tamper = false,
  }) {
    const base = `https://${host}`;
    const issuerProfile = {
      "@context": "https://w3id.org/openbadges/v2",
      type: "Issuer",
      id: `${base}/organization.json`,
      name: "An Example Badge Issuer",
      image: `${base}/logo.png`,
      url: base,
      email: `contact@${host}`,
    };
    const badgeClass = {
      "@context": "https://w3id.org/openbadges/v2",
      type: "BadgeClass",
      id: `${base}/robotics-badge.json`,
      name: "Awesome Robotics Badge",
      description: "For doing awesome things with robots that people think is pretty great.",
      image: `${base}/robotics-badge.png`,
      criteria: `${base}/robotics-badge.html`,
      tags: ["robots", "awesome"],
      issuer: issuerProfile.id,
    };
    const assertion = {
      "@context": "https://w3id.org/openbadges/v2",
      type: "Assertion",
      id: kind === "hosted" ? `${base}/beths-robotics-badge.json` : `urn:uuid:${randomUUID()}`,
      recipient: { type: "email", hashed: true, salt: "deadsea", identity: sha256Identity(email, "deadsea") },
      image: `${base}/beths-robot-badge.png`,
      evidence: `${base}/beths-robot-work.html`,
      issuedOn: "2016-12-31T23:59:59Z",
      ...(expires ? { expires } : {}),
      badge: badgeClass.id,
      verification: kind === "hosted" ? { type: "hosted" } : { type: "SignedBadge", creator: `${base}/publicKey.json` },
    };
    const documents = { [badgeClass.id]: json(badgeClass), [issuerProfile.id]: json(issuerProfile) };
    if (kind === "hosted") {
      documents[assertion.id] = json(
        revoked
          ? {
              "@context": "https://w3id.org/openbadges/v2",
              id: assertion.id,
              revoked: true,
              revocationReason: "Issued in error.",
            }
          : assertion,
      );
      const given = tamper ? { ...assertion, issuedOn: "2015-01-01T00:00:00Z" } : assertion;
      return { assertion: given, documents };
    }
    const { publicKey, privateKey } = await jose.generateKeyPair("RS256", { modulusLength: 2048 });
    issuerProfile.publicKey = `${base}/publicKey.json`;
    issuerProfile.revocationList = `${base}/revocationList.json`;
    documents[issuerProfile.id] = json(issuerProfile);
    documents[issuerProfile.publicKey] = json({
      "@context": "https://w3id.org/openbadges/v2",
      type: "CryptographicKey",
      id: issuerProfile.publicKey,
      owner: issuerProfile.id,
      publicKeyPem: await jose.exportSPKI(publicKey),
    });
    documents[issuerProfile.revocationList] = json({
      "@context": "https://w3id.org/openbadges/v2",
      id: issuerProfile.revocationList,
      type: "RevocationList",
      issuer: issuerProfile.id,
      revokedAssertions: [
        "urn:uuid:3c574c87-b96f-4f06-8eb5-68a29335b60e",
        ...(revoked ? [{ id: assertion.id, revocationReason: "Honor code violation" }] : []),
      ],
    });
    let token = await new jose.CompactSign(new TextEncoder().encode(JSON.stringify(assertion)))
      .setProtectedHeader({ alg: "RS256" })
      .sign(privateKey);
    if (tamper) {
      const [header, , signature] = token.split(".");
      const changed = { ...assertion, issuedOn: "2015-01-01T00:00:00Z" };
      token = `${header}.${Buffer.from(JSON.stringify(changed)).toString("base64url")}.${signature}`;
    }
    return { token, documents };
  }

  /** A 64×64 PNG made by pngjs, with `text` baked in an iTXt chunk `openbadges` (compressed or not). */
  function bakePng({ text, compressed = false, onto }) {
    const png = new PNG({ width: 64, height: 64 });
    png.data.fill(0x80);
    const image = onto ? Buffer.from(onto, "base64") : PNG.sync.write(png);
    const body = compressed ? deflateSync(Buffer.from(text, "utf8")) : Buffer.from(text, "utf8");
    const data = Buffer.concat([
      Buffer.from("openbadges\0", "latin1"),
      Buffer.from([compressed ? 1 : 0, 0, 0, 0]),
      body,
    ]);
    const type = Buffer.from("iTXt", "latin1");
    const chunk = Buffer.alloc(12 + data.length);
    chunk.writeUInt32BE(data.length, 0);
    type.copy(chunk, 4);
    data.copy(chunk, 8);
    chunk.writeUInt32BE(crc32(Buffer.concat([type, data])), 8 + data.length);
    // After IHDR (8-byte signature, then 25 bytes of IHDR), as bakers put it.
    return Buffer.concat([image.subarray(0, 33), chunk, image.subarray(33)]).toString("base64");
  }

  /** An SVG badge with `text` baked as Open Badges 2.0 bakes it: JSON in CDATA, or a JWS in `verify`. */
  function bakeSvg({ text, asVerify = false }) {
    const element = asVerify
      ? `<openbadges:assertion verify="${text}"/>`
      : `<openbadges:assertion verify="${JSON.parse(text).id}"><![CDATA[${text}]]></openbadges:assertion>`;
    return [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:openbadges="http://openbadges.org" width="64" height="64">',
      `  ${element}`,
      '  <circle cx="32" cy="32" r="30" fill="#3b82f6"/>',
      "</svg>",
    ].join("\n");
  }

  return { credential, jwt, verifyJwt, openBadge2, bakePng, bakeSvg };
}

/** The raw 32-byte Ed25519 key of a did:key / Multikey multibase (z6Mk…). */
function decodeMultikey(multibase) {
  const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
  let value = 0n;
  for (const char of multibase.slice(1)) value = value * 58n + BigInt(ALPHABET.indexOf(char));
  const bytes = [];
  while (value > 0n) {
    bytes.unshift(Number(value & 0xffn));
    value >>= 8n;
  }
  return Uint8Array.from(bytes.slice(-32));
}
