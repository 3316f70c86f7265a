// What checking an imported badge or credential found (issue 32), as /passport's Import shows it
// before anything is kept: a plain module, so that components can name these types.

import type { AchievementType } from "#db/enums.ts";

/** Each check the import shows, in the order it shows them. */
export type ImportCheckName =
  "Format" | "Signature" | "Hosted copy" | "Issuer key" | "Issuer" | "Dates" | "Revocation" | "Recipient";
export type ImportCheck = { name: ImportCheckName; passed: boolean; detail: string };

/** What the badge says, as its timeline entry shows it. */
export type ImportedBadge = {
  name: string;
  description: string | null;
  /** An https or data: image URL as the credential gives it; never fetched by the verifier. */
  image: string | null;
  issuerName: string;
  /** The issuer in words: a did:web's or an OB 2.0 issuer's host, or 'Issuer not identified'. */
  issuerIdentity: string;
  /** The award date, YYYY-MM-DD. */
  date: string;
  /** YYYY-MM-DD when the credential has an end of validity. */
  expires: string | null;
  type: AchievementType;
};

/**
 * Who stands behind the issuer's name (issue 43): only an organisation of ours (its verified
 * domain read when shown) or a domain that the issuer's DID configuration links to it establishes
 * it; any other name is the issuer's own choice.
 */
export type ImportIssuer = {
  /** A domain whose did-configuration.json links it to the issuer's did:web, confirmed at this check. */
  linkedDomain: string | null;
  /** The organisation of this app that issued it. */
  organizationId: string | null;
  /** The issuer's name as organisations' names are compared (folded). */
  nameKey: string;
};

export type ImportFormat =
  | "Open Badges 3.0 / VC 2.0"
  | "Verifiable Credential 1.1"
  | "VC-JWT"
  | "Open Badges 2.0, hosted"
  | "Open Badges 2.0, signed";

/**
 * "verified": every check passed; "expired": only its validity ended (it may be kept, shown as
 * Expired); "refused": another check failed, and `reason` says which in plain words.
 */
export type ImportOutcome =
  | {
      status: "verified" | "expired";
      format: ImportFormat;
      /** "baked in a PNG image", say, when the credential came out of an image. */
      container: ImportContainer;
      checks: ImportCheck[];
      badge: ImportedBadge;
      /** What identifies this award across imports: its issuer and its id (or its content's hash). */
      key: string;
      issuer: ImportIssuer;
      /** Issued to this wallet DID, which a DIDAuth made for this import proved (decision 099). */
      walletDid?: string;
    }
  | {
      status: "refused";
      reason: string;
      /** Refused only because this wallet DID is not proved for the import (decision 099). */
      walletDid?: string;
      format: ImportFormat | null;
      container: ImportContainer | null;
      checks: ImportCheck[];
    };

export type ImportContainer = "JSON" | "JWT" | "URL" | "PNG" | "SVG";

export const ISSUER_NOT_IDENTIFIED = "Issuer not identified";
export const SIGNATURE_MISMATCH = "The signature does not match the content";
export const OTHER_ADDRESS =
  "This credential was issued to another e-mail address. Add and confirm that address in Settings first.";
