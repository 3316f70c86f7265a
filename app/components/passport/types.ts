import type { AchievementType, ImportStatus } from "#db/schema.ts";

// What a passport view needs, whoever loads it (the public page, the landing demo, the owner).
export type PassportProfile = {
  fullName: string | null;
  bio: string | null;
  avatarUrl: string | null;
  introVideoUrl: string | null;
  introVideoThumbnailUrl: string | null;
};

export type PassportAchievement = {
  id: string;
  title: string;
  description: string | null;
  date: string;
  type: AchievementType;
  imageUrl: string | null;
  videoUrl: string | null;
  /** Resized copies of the image for srcset, when the zone resizes images. */
  imageSrcSet?: string;
  /** Null for a self achievement. */
  organizationName: string | null;
  isSelf: boolean;
  /** A 'Member of …' entry (decision 070), and the day its membership ended (null while it lasts). */
  isMembership?: boolean;
  membershipEndedOn?: string | null;
  /** Its expiry day, then how often it was renewed and when first given (decision 071). */
  validUntil?: string | null;
  renewalCount?: number;
  firstGivenOn?: string | null;
  /** The Open Badges credential that backs an organisation achievement, when one was issued. */
  credentialId?: string | null;
  /** Who stands behind the giver's name (app/utils/issuer-identity.ts), said on a credential's card. */
  issuerDomain?: string | null;
  issuerCheckedAt?: number | null;
  issuerNameNotVerified?: number | boolean | null;
  /** An imported badge's standing (decision 069); null or absent for any other entry. */
  importStatus?: ImportStatus | null;
  /** The imported badge's issuer in words: a host, or 'Issuer not identified'. */
  importIssuer?: string | null;
  importRevokedAt?: number | null;
  /**
   * The endorsements its owner shows (decision 072): the first few, with the endorser's name and
   * words, and how many there are in all (decision 079); absent when it has none.
   */
  endorsements?: PassportEndorsement[];
  endorsementCount?: number;
};

/**
 * One endorsement as a public card shows it (decision 072): who, whether a person or an
 * organisation, an organisation's verified domain (issue 43), and what they said.
 */
export type PassportEndorsement = {
  id: string;
  name: string;
  comment: string;
  byOrganization: boolean;
  domain: string | null;
};
