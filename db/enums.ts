// The closed value lists of the schema's text columns. No drizzle import: the browser's form
// schemas read them (app/utils/achievement-schemas.ts) and must not pull the ORM into a page.
export const USER_TYPES = ["individual", "organization"] as const;
export const ROLES = ["admin", "member"] as const;
export const MEMBERSHIP_STATUSES = ["pending", "approved"] as const;
export const SUBSCRIPTION_STATUSES = ["active", "inactive"] as const;
export const ACHIEVEMENT_STATUSES = ["pending", "accepted", "rejected"] as const;
/** An achievement that counts: offered and awaiting an answer, or accepted (not declined). */
export const LIVE_ACHIEVEMENT_STATUSES = ["pending", "accepted"] as const satisfies readonly AchievementStatus[];
export const ACHIEVEMENT_TYPES = ["award", "training", "milestone"] as const;
/** An accepted achievement's credential still to be signed: with its media (the recipient consented) or without. */
export const CREDENTIAL_DUE = ["with-media", "without-media"] as const;
export const NOTIFICATION_TYPES = ["success", "warning", "error", "info"] as const;
/** An issuer domain: claimed, proven by its DNS record, or no longer proven (three failed checks). */
export const DOMAIN_STATUSES = ["pending", "verified", "lapsed"] as const;
/**
 * What an exchange with a holder's wallet is for. "issue": the credential goes to the wallet,
 * reissued to its DID (decision 064). Accepting an offered achievement by signing, a later part of
 * issue 31, will be another purpose of the same exchange.
 */
// "issue": hand an accepted credential to the wallet; "accept": accept a pending achievement by signing (decision 066).
export const WALLET_EXCHANGE_PURPOSES = ["issue", "accept", "import"] as const;
export type WalletExchangePurpose = (typeof WALLET_EXCHANGE_PURPOSES)[number];

/**
 * Where an imported credential stands (issue 32): every check held ("verified"), only its validity
 * ended ("expired"), its issuer revoked it ("revoked"), or a later re-check could not verify it
 * ("unverified": an issuer's document unreadable, say). Only "verified" shows the verified icon.
 */
export const IMPORT_STATUSES = ["verified", "expired", "revoked", "unverified"] as const;

/** An endorsement (decision 072): waiting for the owner's answer, shown on the passport, or hidden by the owner. */
export const ENDORSEMENT_STATUSES = ["pending", "shown", "hidden"] as const;
export type EndorsementStatus = (typeof ENDORSEMENT_STATUSES)[number];

export type UserType = (typeof USER_TYPES)[number];
export type Role = (typeof ROLES)[number];
export type AchievementType = (typeof ACHIEVEMENT_TYPES)[number];
export type AchievementStatus = (typeof ACHIEVEMENT_STATUSES)[number];
export type CredentialDue = (typeof CREDENTIAL_DUE)[number];
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
export type ImportStatus = (typeof IMPORT_STATUSES)[number];
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];
/** What an OpenID4VCI row is (decision 065): a credential offer's pre-authorised code, an access token, a c_nonce. */
export const OPENID4VCI_GRANT_KINDS = ["offer", "token", "nonce"] as const;
