import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { DID_CONFIGURATION_CONTEXT, documentLoader } from "#app/services/credentials/contexts.server.ts";
import type { JsonObject } from "#app/services/credentials/data-integrity.server.ts";
import {
  checkDomainLinkage,
  domainLinkageConfiguration,
  linkedDomainsOf,
} from "#app/services/credentials/domain-linkage.server.ts";
import { organizationDid, type Issuing } from "#app/services/credentials/issuer.server.ts";
import { didDocument } from "#app/services/credentials/issuer-documents.server.ts";
import { assertionKey } from "#app/services/credentials/did-web.server.ts";
import { createDb } from "#db/client.ts";
import difExample from "../fixtures/dif/did-configuration-example.json";
import { dccVerify, didDocumentServed, type Credential, type Served } from "./credentials-helpers.ts";
import { createOrganisation } from "./factories.ts";
import { ORIGIN } from "./helpers.ts";

// The DIF Well Known DID Configuration resource (app/services/credentials/domain-linkage.server.ts)
// and its check, against our own verifier and against checkers nobody here wrote:
// - @sphereon/wellknown-dids-client validates the resource and its DomainLinkageCredential as the
//   DIF spec describes them, and asks the Digital Credentials Consortium's verification engine
//   (@digitalcredentials/vc with the eddsa-rdfc-2022 suite) to check each signature
//   (tests/workers/dcc-verifier.ts, in Node, offline).
// - @digitalcredentials/verifier-core cannot check this form: before anything else it requires the
//   credential's `id` to be a URL, and the DIF spec says a DomainLinkageCredential's `id` "MUST NOT
//   be present". Its engine, above, checks the signature and the expiry instead; and the DIF spec's
//   own published example (tests/fixtures/dif/) is the further outside reference.

const DOMAIN = "acme.example";
const DAY = 24 * 60 * 60 * 1000;

const issuingHere = (): Issuing => ({ db: createDb(env.DB), origin: ORIGIN, secret: env.SESSION_SECRET });

/** Our DID document's key for a verification method, as a verifier resolving did:web gets it. */
const resolveKeyOf = (issuing: Issuing, organizationId: string) => async (verificationMethod: string) => {
  const document = await didDocument(issuing, organizationId);
  return document ? assertionKey(document, verificationMethod) : null;
};

async function linkedOrganisation(now = new Date()) {
  const { organizationId } = await createOrganisation();
  const issuing = issuingHere();
  const did = organizationDid(issuing, organizationId);
  const configuration = await domainLinkageConfiguration(issuing, organizationId, DOMAIN, now);
  return { organizationId, did, configuration, resolveKey: resolveKeyOf(issuing, organizationId) };
}

const credentialIn = (configuration: { linked_dids: unknown[] }) => configuration.linked_dids[0] as Credential;

describe("the DID configuration resource", () => {
  it("links the domain to the organisation's did:web with a signed DomainLinkageCredential", async () => {
    const now = new Date("2026-02-28T09:30:15.250Z");
    const { did, configuration, resolveKey } = await linkedOrganisation(now);
    expect(configuration).toEqual({
      "@context": "https://identity.foundation/.well-known/did-configuration/v1",
      linked_dids: [
        {
          "@context": [
            "https://www.w3.org/2018/credentials/v1",
            "https://identity.foundation/.well-known/did-configuration/v1",
            "https://w3id.org/security/data-integrity/v2",
          ],
          type: ["VerifiableCredential", "DomainLinkageCredential"],
          issuer: did,
          issuanceDate: "2026-02-28T09:30:15Z",
          expirationDate: "2027-02-28T09:30:15Z",
          credentialSubject: { id: did, origin: "https://acme.example" },
          proof: [
            {
              type: "DataIntegrityProof",
              cryptosuite: "eddsa-rdfc-2022",
              created: "2026-02-28T09:30:15Z",
              verificationMethod: `${did}#key-1`,
              proofPurpose: "assertionMethod",
              proofValue: expect.stringMatching(/^z/),
            },
          ],
        },
      ],
    });
    const during = new Date("2026-08-01T00:00:00Z");
    expect(await checkDomainLinkage(configuration, did, DOMAIN, resolveKey, during)).toEqual({
      linked: true,
      detail: "acme.example links to this issuer.",
    });
  });

  it("links a configuration that also lists other DIDs, in any order", async () => {
    const { did, configuration, resolveKey } = await linkedOrganisation();
    const other = await linkedOrganisation();
    const both = { ...configuration, linked_dids: [credentialIn(other.configuration), credentialIn(configuration)] };
    expect(await checkDomainLinkage(both, did, DOMAIN, resolveKey)).toMatchObject({ linked: true });
  });

  it("checks at most three credentials that name the DID", async () => {
    const { did, configuration, resolveKey } = await linkedOrganisation();
    const forged = { ...credentialIn(configuration), expirationDate: "2099-01-01T00:00:00Z" };
    const crowded = { ...configuration, linked_dids: [forged, forged, forged, credentialIn(configuration)] };
    expect(await checkDomainLinkage(crowded, did, DOMAIN, resolveKey)).toEqual({
      linked: false,
      detail: "acme.example's domain linkage credential has a signature that does not match.",
    });
  });

  // Each case changes one thing about a credential made at START and checked a second later.
  const START = new Date(Math.floor(Date.now() / 1000) * 1000);
  const aYearAfter = (date: Date) => new Date(new Date(date).setUTCFullYear(date.getUTCFullYear() + 1));
  const dayOf = (date: Date) => date.toISOString().slice(0, 10);
  type Case = {
    change?: (credential: Credential) => void;
    domain?: string;
    did?: (did: string) => string;
    at?: Date;
    resolvesKey?: boolean;
    detail: string;
  };
  const cases: Record<string, Case> = {
    "another domain": {
      domain: "other.example",
      detail: "other.example's domain linkage credential is for https://acme.example, not https://other.example.",
    },
    "another organisation's DID": {
      did: (did) => did.replace(/[0-9a-f]{4}$/, "0000"),
      detail: "acme.example's DID configuration does not name this issuer.",
    },
    "an origin changed after signing": {
      change: (credential) => (credential.credentialSubject.origin = "https://evil.example"),
      domain: "evil.example",
      detail: "evil.example's domain linkage credential has a signature that does not match.",
    },
    "an origin with a path": {
      change: (credential) => (credential.credentialSubject.origin = "https://acme.example/"),
      detail: "acme.example's domain linkage credential is for https://acme.example/, not https://acme.example.",
    },
    "a later expiration date": {
      change: (credential) => (credential.expirationDate = "2099-01-01T00:00:00Z"),
      detail: "acme.example's domain linkage credential has a signature that does not match.",
    },
    "a check a day after it expired": {
      at: new Date(aYearAfter(START).getTime() + DAY),
      detail: `acme.example's domain linkage credential expired on ${dayOf(aYearAfter(START))}.`,
    },
    "a check a day before it was issued": {
      at: new Date(START.getTime() - DAY),
      detail: `acme.example's domain linkage credential is not valid before ${dayOf(START)}.`,
    },
    "no expiration date": {
      change: (credential) => delete credential.expirationDate,
      detail: "acme.example's domain linkage credential lacks a valid issuance or expiration date.",
    },
    "another type": {
      change: (credential) => (credential.type = ["VerifiableCredential"]),
      detail: "acme.example's domain linkage credential is not of type DomainLinkageCredential.",
    },
    "another issuer than subject": {
      change: (credential) => (credential.issuer = "did:web:evil.example"),
      detail: "acme.example's domain linkage credential does not name this issuer as both its issuer and its subject.",
    },
    "a key the DID document does not list for assertions": {
      resolvesKey: false,
      detail:
        "acme.example's domain linkage credential is signed with a key the issuer's DID document does not list for assertions.",
    },
    "a proof of another suite (the DIF example's)": {
      change: (credential) => (credential.proof = (difExample.linked_dids[0] as Credential).proof),
      detail:
        "acme.example's domain linkage credential has no eddsa-rdfc-2022 proof (the only proof this verifier checks).",
    },
  };

  it.each(Object.entries(cases))(
    "does not link with %s",
    async (_name, { change, domain, did, at, resolvesKey, detail }) => {
      const { did: ourDid, configuration, resolveKey } = await linkedOrganisation(START);
      change?.(credentialIn(configuration));
      const result = await checkDomainLinkage(
        configuration,
        did ? did(ourDid) : ourDid,
        domain ?? DOMAIN,
        resolvesKey === false ? async () => null : resolveKey,
        at ?? new Date(START.getTime() + 1000),
      );
      expect(result).toEqual({ linked: false, detail });
    },
  );

  it("answers any JSON without throwing", async () => {
    const { did, configuration, resolveKey } = await linkedOrganisation();
    const garbage: unknown[] = [
      null,
      42,
      "did-configuration",
      [],
      {},
      { "@context": DID_CONFIGURATION_CONTEXT },
      { "@context": DID_CONFIGURATION_CONTEXT, linked_dids: "x" },
      { linked_dids: configuration.linked_dids },
      {
        "@context": DID_CONFIGURATION_CONTEXT,
        linked_dids: [null, 1, "x", "a.b.c", [], { issuer: {} }, { issuer: did, credentialSubject: "x", type: 5 }],
      },
      {
        "@context": DID_CONFIGURATION_CONTEXT,
        linked_dids: [
          { ...credentialIn(configuration), proof: [{ ...credentialIn(configuration).proof[0], proofValue: "z!!" }] },
        ],
      },
      { "@context": DID_CONFIGURATION_CONTEXT, linked_dids: [{ ...credentialIn(configuration), "@context": 7 }] },
    ];
    for (const input of garbage) {
      const result = await checkDomainLinkage(input, did, DOMAIN, resolveKey);
      expect(result.linked, JSON.stringify(input)).toBe(false);
      expect(result.detail).toMatch(/^acme\.example's /);
    }
    const throwing = async () => {
      throw new Error("DID document unreachable");
    };
    expect(await checkDomainLinkage(configuration, did, DOMAIN, throwing)).toEqual({
      linked: false,
      detail:
        "acme.example's domain linkage credential could not be checked: the issuer's DID document could not be read.",
    });
  });
});

type OutsideVerdict = {
  sphereon: { status: string; message?: string; credentials?: { status: string; message?: string }[] };
  signatures: { verified: boolean; log?: { id: string; valid: boolean }[] }[];
};

/** Sphereon's verifier, with the DCC's engine for signatures (tests/workers/dcc-verifier.ts). */
async function outsideCheck(configuration: unknown, did: string): Promise<OutsideVerdict> {
  // The DIF context's URL does not serve the context itself: the engine is handed our bundled copy.
  const context: Served = {
    status: 200,
    contentType: "application/ld+json",
    body: JSON.stringify((await documentLoader(DID_CONFIGURATION_CONTEXT)).document),
  };
  const documents = { ...(await didDocumentServed(did)), [DID_CONFIGURATION_CONTEXT]: context };
  const response = await fetch(`${inject("dccVerifierUrl")}/domain-linkage`, {
    method: "POST",
    body: JSON.stringify({ configuration, did, documents }),
  });
  if (!response.ok) throw new Error(await response.text());
  return ((await response.json()) as { result: OutsideVerdict }).result;
}

describe("checkers nobody here wrote", () => {
  it("Sphereon's wellknown-dids-client accepts the resource and the DCC's engine its signature", async () => {
    const { did, configuration } = await linkedOrganisation();
    const verdict = await outsideCheck(configuration, did);
    expect(verdict.sphereon).toEqual({ status: "valid", credentials: [{ status: "valid" }] });
    expect(verdict.signatures).toEqual([
      {
        verified: true,
        log: [
          { id: "valid_signature", valid: true },
          { id: "issuer_did_resolves", valid: true },
          { id: "expiration", valid: true },
        ],
      },
    ]);
  });

  it("they refuse a changed origin, and a resource that does not name the DID", async () => {
    const { did, configuration } = await linkedOrganisation();
    credentialIn(configuration).credentialSubject.origin = "https://evil.example";
    const tampered = await outsideCheck(configuration, did);
    expect(tampered.sphereon.status).toBe("invalid");
    expect(tampered.signatures).toEqual([expect.objectContaining({ verified: false })]);
    const other = await linkedOrganisation();
    const unnamed = await outsideCheck(other.configuration, did);
    expect(unnamed.sphereon).toMatchObject({ status: "invalid", message: expect.stringContaining(did) });
  });

  it("verifier-core refuses a DomainLinkageCredential for having no id, which the DIF spec forbids it", async () => {
    const { configuration } = await linkedOrganisation();
    const credential = credentialIn(configuration);
    expect(credential.id).toBeUndefined();
    expect((await dccVerify(credential)).fatal).toEqual(["invalid_credential_id"]);
  });

  describe("the DIF spec's own example (tests/fixtures/dif/did-configuration-example.json)", () => {
    const example = difExample as { "@context": string; linked_dids: [Credential, string] };
    const keysOf = (value: Credential) => Object.keys(value).sort();

    it("has the members ours has, at every level", async () => {
      const { configuration } = await linkedOrganisation();
      const ours = credentialIn(configuration);
      const theirs = example.linked_dids[0];
      expect(keysOf(configuration)).toEqual(keysOf(example));
      expect(keysOf(ours)).toEqual(keysOf(theirs));
      expect(keysOf(ours.credentialSubject)).toEqual(keysOf(theirs.credentialSubject));
      expect(ours.type).toEqual(theirs.type);
      expect(ours["@context"][0]).toBe(theirs["@context"][0]);
    });

    const did = "did:web:identity.foundation";
    const domain = "identity.foundation";
    const noKey = async () => null;
    it.each([
      ["expired", example, new Date(), "identity.foundation's domain linkage credential expired on 2020-05-13."],
      [
        "in date, with a proof of another suite",
        example,
        new Date("2020-04-20T00:00:00Z"),
        "identity.foundation's domain linkage credential has no eddsa-rdfc-2022 proof (the only proof this verifier checks).",
      ],
      [
        "as a JWT only",
        { ...example, linked_dids: [example.linked_dids[1]] },
        new Date("2020-04-20T00:00:00Z"),
        "identity.foundation's DID configuration names this issuer only in a JSON Web Token, a proof format this verifier does not check.",
      ],
    ])("reads as not linked when %s", async (_name, configuration, now, detail) => {
      expect(await checkDomainLinkage(configuration, did, domain, noKey, now)).toEqual({ linked: false, detail });
    });
  });
});

describe("linkedDomainsOf", () => {
  const service = (serviceEndpoint: unknown, type: unknown = "LinkedDomains") => ({
    id: "did:web:example.com#linked-domains",
    type,
    serviceEndpoint,
  });
  it.each<[string, JsonObject, string[]]>([
    ["an origin", { service: [service("https://acme.example")] }, ["acme.example"]],
    [
      "a list of origins",
      { service: [service(["https://a.example", "https://b.example"])] },
      ["a.example", "b.example"],
    ],
    ["{ origins }", { service: [service({ origins: ["https://acme.example"] })] }, ["acme.example"]],
    ["a single service object", { service: service("https://acme.example") }, ["acme.example"]],
    ["a type list", { service: [service("https://acme.example", ["LinkedDomains"])] }, ["acme.example"]],
    ["a port", { service: [service("https://acme.example:8443")] }, ["acme.example:8443"]],
    ["another service type", { service: [service("https://acme.example", "LinkedVerifiablePresentation")] }, []],
    [
      "http, paths, non-URLs and non-strings",
      { service: [service(["http://a.example", "https://b.example/x", "c", 7, null])] },
      [],
    ],
    [
      "duplicates",
      { service: [service("https://acme.example"), service({ origins: ["https://acme.example"] })] },
      ["acme.example"],
    ],
    ["no service", {}, []],
    [
      "garbage",
      {
        service: [null, 1, "x", { type: "LinkedDomains" }, { type: "LinkedDomains", serviceEndpoint: { origins: 5 } }],
      },
      [],
    ],
    [
      "the DIF spec's example",
      {
        service: [
          service({ origins: ["https://foo.example.com", "https://identity.foundation"] }),
          service("https://bar.example.com"),
        ],
      },
      ["foo.example.com", "identity.foundation", "bar.example.com"],
    ],
  ])("reads %s", (_name, document, domains) => {
    expect(linkedDomainsOf(document)).toEqual(domains);
  });
});
