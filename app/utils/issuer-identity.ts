// Who stands behind an issuer's name, as pages say it (decision 055): a plain module, so that
// components and loaders share it without the database.

export type IssuerIdentity = {
  /** The organisation's verified domain, with when its DNS record was last found. */
  verifiedDomain: { domain: string; checkedAt: string } | null;
  /** Another organisation with a verified domain has this name (and this one has none). */
  nameNotVerified: boolean;
};

/** What the identity columns (db/queries/organization-domains.ts) read, as a page shows it. */
export function issuerIdentityOf(row: {
  issuerDomain?: string | null;
  issuerCheckedAt?: number | Date | null;
  issuerNameNotVerified?: number | boolean | null;
}): IssuerIdentity {
  return {
    verifiedDomain: row.issuerDomain
      ? { domain: row.issuerDomain, checkedAt: new Date(row.issuerCheckedAt ?? 0).toISOString() }
      : null,
    nameNotVerified: !row.issuerDomain && Boolean(row.issuerNameNotVerified),
  };
}

export const DOMAIN_VERIFIED_TEXT = "Issuer's domain verified";
export const NAME_NOT_VERIFIED_TEXT = "Issuer name not verified: the organisation chose this name itself";
/** An imported credential's issuer that neither is one of ours nor has a linked domain (issue 43). */
export const IMPORTED_NAME_NOT_VERIFIED_TEXT = "Issuer name not verified: the issuer chose this name itself";
