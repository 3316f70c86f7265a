import { resolveDid } from "#app/services/credentials/did-web.server.ts";
import { linkedDomainsOf } from "#app/services/credentials/domain-linkage.server.ts";
import type { JsonObject } from "#app/services/credentials/data-integrity.server.ts";
import { linkageOf, ownOrganizationOf } from "#app/services/credentials/verify.server.ts";
import { issuerIdentityOf, type IssuerIdentity } from "#app/utils/issuer-identity.ts";
import type { Db } from "#db/client.ts";
import { findIssuerIdentity, verifiedNameTaken } from "#db/queries/organization-domains.ts";
import { organizationNameKey } from "#db/queries/organizations.ts";
import type { ImportIssuer } from "./import-result.ts";
import type { ImportSession } from "./checks.server.ts";

/** Linked domains checked per import: each is one outside read, within the import's budget. */
const LINKED_DOMAINS_CHECKED = 3;

/**
 * Who stands behind an imported credential's issuer name (issue 43), asked only once every check
 * but expiry passed, as /verify asks it (decision 055): one of our organisations' did:web, whose
 * verified domain the passport reads when it shows the entry; or another host's did:web whose DID
 * document lists a domain (LinkedDomains) that links back in its did-configuration.json, read
 * within the import's budget. A did:key, an OB 2.0 issuer (no DID to link) or a did:web without a
 * linked domain has only the name it chose; its folded key lets the passport mark it when an
 * organisation with a verified domain has the same name.
 */
export async function importIssuerOf(session: ImportSession, issuerId: string, name: string): Promise<ImportIssuer> {
  const nameKey = organizationNameKey(name);
  const organizationId = ownOrganizationOf(session.resolver.issuing, issuerId);
  if (organizationId || !issuerId.startsWith("did:web:")) {
    return { linkedDomain: null, organizationId, nameKey };
  }
  return { linkedDomain: await linkedDomainOf(session, issuerId), organizationId: null, nameKey };
}

async function linkedDomainOf(session: ImportSession, issuerId: string) {
  // Read once already, for the signature's key: no second outside read.
  const didDocument = await resolveDid(session.lookup, issuerId);
  if (typeof didDocument === "string") return null;
  for (const domain of linkedDomainsOf(didDocument).slice(0, LINKED_DOMAINS_CHECKED)) {
    const linkage = await linkageOf(session.lookup, didDocument as JsonObject, issuerId, domain);
    if (linkage.linked) return domain;
  }
  return null;
}

/**
 * Who stands behind the issuer's name as the card will say it, for the check's preview: the same
 * words as the passport, read now (two indexed reads at most; the check is rate-limited).
 */
export async function previewIdentity(db: Db, issuer: ImportIssuer, now: Date): Promise<IssuerIdentity> {
  if (issuer.linkedDomain) {
    return { verifiedDomain: { domain: issuer.linkedDomain, checkedAt: now.toISOString() }, nameNotVerified: false };
  }
  const own = issuer.organizationId
    ? issuerIdentityOf((await findIssuerIdentity(db, issuer.organizationId)) ?? {})
    : null;
  if (own?.verifiedDomain) return own;
  return { verifiedDomain: null, nameNotVerified: await verifiedNameTaken(db, issuer.nameKey) };
}
