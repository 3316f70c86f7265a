// The one schema of the app. drizzle-kit turns it into SQL under migrations/ (`npm run db:generate`).
// Ids are UUIDs; timestamps are milliseconds since the epoch; booleans are 0/1 integers.
import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

const id = () =>
  text("id")
    .primaryKey()
    .$defaultFn(() => crypto.randomUUID());
const createdAt = () =>
  integer("created_at", { mode: "timestamp_ms" })
    .notNull()
    .$defaultFn(() => new Date());
const updatedAt = () =>
  integer("updated_at", { mode: "timestamp_ms" })
    .notNull()
    .$defaultFn(() => new Date())
    .$onUpdateFn(() => new Date());
/** 128 random bits, URL-safe: unguessable, short enough to read in a link. */
export function newInviteCode() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}
const inList = (column: string, values: readonly string[]) =>
  sql.raw(`${column} in (${values.map((value) => `'${value}'`).join(", ")})`);

// The value lists live apart from drizzle so browser code can import them without the ORM.
export * from "./enums.ts";
import {
  ACHIEVEMENT_TYPES,
  DOMAIN_STATUSES,
  ENDORSEMENT_STATUSES,
  IMPORT_STATUSES,
  ACHIEVEMENT_STATUSES,
  CREDENTIAL_DUE,
  MEMBERSHIP_STATUSES,
  NOTIFICATION_TYPES,
  ROLES,
  SUBSCRIPTION_STATUSES,
  USER_TYPES,
  OPENID4VCI_GRANT_KINDS,
  WALLET_EXCHANGE_PURPOSES,
} from "./enums.ts";

// ---- Authentication (the tables better-auth reads and writes) ----

export const users = sqliteTable("users", {
  id: id(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: integer("email_verified", { mode: "boolean" }).notNull().default(false),
  image: text("image"),
  /** Signing in with a password also asks for an authenticator code (better-auth's twoFactor plugin). */
  twoFactorEnabled: integer("two_factor_enabled", { mode: "boolean" }).notNull().default(false),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const sessions = sqliteTable(
  "sessions",
  {
    id: id(),
    token: text("token").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    /** Where the session's latest sign-in or refresh came from, as the edge saw it ("Amsterdam, Netherlands"). */
    place: text("place"),
    /**
     * How the session was signed in (decision 089): "password", "two-factor" (the password and a
     * code from the authenticator app or a recovery code), "passkey", or "email-link" (the
     * confirmation link of a new account). Null for sessions from before it was recorded.
     */
    signInMethod: text("sign_in_method"),
    /**
     * The strong factor this session has used, at sign-in or confirmed since (step-up): "code" or
     * "passkey"; null when it used none. What an organisation that asks its admins for a strong
     * factor reads (decisions 062, 089).
     */
    strongFactor: text("strong_factor"),
    createdAt: createdAt(),
    /** Last seen: set when the session starts and each time it is refreshed (at most hourly). */
    updatedAt: updatedAt(),
  },
  // A person's sessions, most recently seen first (Settings pages through them).
  (t) => [index("sessions_user_seen_idx").on(t.userId, t.updatedAt, t.id)],
);

export const accounts = sqliteTable(
  "accounts",
  {
    id: id(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: integer("access_token_expires_at", { mode: "timestamp_ms" }),
    refreshTokenExpiresAt: integer("refresh_token_expires_at", { mode: "timestamp_ms" }),
    scope: text("scope"),
    password: text("password"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("accounts_user_id_idx").on(t.userId)],
);

export const verifications = sqliteTable(
  "verifications",
  {
    id: id(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("verifications_identifier_idx").on(t.identifier)],
);

/**
 * A person's authenticator (better-auth's twoFactor plugin, which names the properties): the TOTP
 * secret, encrypted under TWO_FACTOR_SECRETS, and the recovery codes, as hashes (decision 098).
 * `verified` stays false until a first code confirms the setup. One row per person.
 */
export const twoFactors = sqliteTable(
  "two_factors",
  {
    id: id(),
    secret: text("secret").notNull(),
    backupCodes: text("backup_codes").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    verified: integer("verified", { mode: "boolean" }).notNull().default(true),
    /** Consecutive wrong codes at sign-in; at 10 the second step locks until `lockedUntil`. */
    failedVerificationCount: integer("failed_verification_count").notNull().default(0),
    lockedUntil: integer("locked_until", { mode: "timestamp_ms" }),
    /**
     * The app's own: the time step (unix seconds / 30) of the last code accepted, so that no code
     * works twice, nor an older one (ASVS 2.8.4; the library keeps no such record).
     */
    lastTotpStep: integer("last_totp_step"),
  },
  (t) => [uniqueIndex("two_factors_user_idx").on(t.userId)],
);

/**
 * A passkey (better-auth's passkey plugin, which names the properties): a WebAuthn credential's
 * public key, held by the person's device or password manager. `counter` is the authenticator's
 * signature count (0 for synced passkeys). Signing in with one counts as two factors: only
 * passkeys that verify the person (PIN, fingerprint, face) are accepted (docs/decisions/061).
 */
export const passkeys = sqliteTable(
  "passkeys",
  {
    id: id(),
    /** The person's own label ("Work laptop"); null until they give one. */
    name: text("name"),
    publicKey: text("public_key").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    credentialID: text("credential_id").notNull(),
    counter: integer("counter").notNull().default(0),
    /** "singleDevice" or "multiDevice" (synced). */
    deviceType: text("device_type").notNull(),
    backedUp: integer("backed_up", { mode: "boolean" }).notNull().default(false),
    /** Comma-separated WebAuthn transports ("internal,hybrid"), as the browser reported them. */
    transports: text("transports"),
    createdAt: createdAt(),
    aaguid: text("aaguid"),
    /** The app's own: when it last signed the person in (the library keeps no such record). */
    lastUsedAt: integer("last_used_at", { mode: "timestamp_ms" }),
  },
  (t) => [index("passkeys_user_idx").on(t.userId), uniqueIndex("passkeys_credential_idx").on(t.credentialID)],
);

export const rateLimits = sqliteTable("rate_limits", {
  id: id(),
  key: text("key").notNull().unique(),
  count: integer("count").notNull(),
  lastRequest: integer("last_request").notNull(),
});

// ---- Product ----

export const organizations = sqliteTable(
  "organizations",
  {
    id: id(),
    name: text("name").notNull(),
    // The name compared with verified issuers' names (organizationNameKey: case and accents
    // folded), written by the app when the organisation is made; null for rows written by SQL,
    // which then compare as lower(trim(name)).
    nameKey: text("name_key"),
    description: text("description"),
    // The secret half of the invite link (/join/{id}?code=...): the id alone is public (search
    // shows it), so only the code makes someone a member without approval. 'Reset link' replaces it.
    inviteCode: text("invite_code")
      .notNull()
      .$defaultFn(() => newInviteCode()),
    // Maintained by triggers (migration 0008, decision 037), never written by the app: every
    // achievement the organisation ever gave, whatever its status, and its members by status.
    achievementsGiven: integer("achievements_given").notNull().default(0),
    approvedMembers: integer("approved_members").notNull().default(0),
    pendingMembers: integer("pending_members").notNull().default(0),
    // Its admins must hold a strong factor (two-factor on, or a passkey) to act as admins
    // (decision 062); set on "Organisation profile".
    requireTwoFactor: integer("require_two_factor", { mode: "boolean" }).notNull().default(false),
    // Approved members get a 'Member of …' passport entry backed by a credential (issue 33,
    // decision 070); set on "Organisation profile".
    membershipCredentials: integer("membership_credentials", { mode: "boolean" }).notNull().default(true),
    // Who made it from the dashboard's form, and that form's submission key (decision 077): a
    // resent form (a lost answer, a double click) makes one organisation, not two. Null for
    // organisations made at sign-up, which the pending setup row already makes once.
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    submissionKey: text("submission_key"),
    createdAt: createdAt(),
  },
  (t) => [
    // Search and the "all organisations" list are ordered by name, case-insensitively.
    index("organizations_name_idx").on(sql`${t.name} collate nocase`),
    uniqueIndex("organizations_submission_key_idx").on(t.createdBy, t.submissionKey),
  ],
);

export const profiles = sqliteTable(
  "profiles",
  {
    id: text("id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    fullName: text("full_name").notNull(),
    userType: text("user_type", { enum: USER_TYPES }).notNull(),
    bio: text("bio"),
    avatarUrl: text("avatar_url"),
    introVideoUrl: text("intro_video_url"),
    introVideoThumbnailUrl: text("intro_video_thumbnail_url"),
    // Bytes of the person's stored files (decision 074): the sum of their stored_files rows, set
    // in the same batch as every change of those rows.
    storageBytes: integer("storage_bytes").notNull().default(0),
    // Set (by migration 0026) for people whose files predate the tally: the daily cron counts
    // them (`backfillStorage`), then clears it; until then the database does not hold their quota.
    storageBackfillPending: integer("storage_backfill_pending", { mode: "boolean" }).notNull().default(false),
    isPublic: integer("is_public", { mode: "boolean" }).notNull().default(true),
    // Settings: search engines may index the public passport; e-mail when an organisation recognises them.
    searchIndexing: integer("search_indexing", { mode: "boolean" }).notNull().default(true),
    recognitionEmails: integer("recognition_emails", { mode: "boolean" }).notNull().default(true),
    activeOrganizationId: text("active_organization_id").references(() => organizations.id, {
      onDelete: "set null",
    }),
    deletedAt: integer("deleted_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("profiles_user_type_check", inList("user_type", USER_TYPES)),
    // The daily purge looks for accounts archived before a cut-off.
    index("profiles_deleted_at_idx").on(t.deletedAt),
  ],
);

export const organizationRoles = sqliteTable(
  "organization_roles",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    role: text("role", { enum: ROLES }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check("organization_roles_role_check", inList("role", ROLES)),
    uniqueIndex("organization_roles_user_org_role_idx").on(t.userId, t.organizationId, t.role),
    index("organization_roles_org_role_idx").on(t.organizationId, t.role),
  ],
);

/**
 * When a membership counts from for 'Needs recognition' (its index orders by exactly this).
 * drizzle-kit splits an index expression at its commas, so migration 0008 writes this index's
 * CREATE INDEX by hand; a change to it needs the same.
 */
export const recognisedSince = sql`coalesce(last_recognised_at, approved_at, requested_at)`;

export const organizationMembers = sqliteTable(
  "organization_members",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    status: text("status", { enum: MEMBERSHIP_STATUSES }).notNull().default("pending"),
    requestedAt: integer("requested_at", { mode: "timestamp_ms" })
      .notNull()
      .$defaultFn(() => new Date()),
    approvedAt: integer("approved_at", { mode: "timestamp_ms" }),
    subscriptionStatus: text("subscription_status", { enum: SUBSCRIPTION_STATUSES }).notNull().default("inactive"),
    stripeCustomerId: text("stripe_customer_id"),
    stripeSubscriptionId: text("stripe_subscription_id"),
    // The admin who paid, told when the subscription starts or ends.
    subscribedBy: text("subscribed_by").references(() => users.id, { onDelete: "set null" }),
    // Creation time (Stripe's, in ms) of the newest event applied to this subscription: Stripe
    // does not deliver in order, so an older event never overwrites what a newer one set.
    subscriptionEventAt: integer("subscription_event_at", { mode: "timestamp_ms" }),
    // Maintained by triggers (migration 0008, decision 037): when the organisation last gave this
    // person a live (pending or accepted) achievement, null if never.
    lastRecognisedAt: integer("last_recognised_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    check("organization_members_status_check", inList("status", MEMBERSHIP_STATUSES)),
    check("organization_members_subscription_status_check", inList("subscription_status", SUBSCRIPTION_STATUSES)),
    uniqueIndex("organization_members_user_org_idx").on(t.userId, t.organizationId),
    // Team Members and Pending Requests pages: newest first, the id breaking ties (keyset paging).
    index("organization_members_org_status_requested_idx").on(t.organizationId, t.status, t.requestedAt, t.id),
    index("organization_members_stripe_subscription_idx").on(t.stripeSubscriptionId),
    // What a person pays for, in one organisation or anywhere (billing follows the person,
    // decision 059); it also serves the foreign key's set null when a payer's account goes.
    index("organization_members_payer_idx").on(t.subscribedBy, t.organizationId),
    // 'Needs recognition': approved members by the moment they count from (last recognition, else
    // approval, else request), oldest first. The query orders by this very expression.
    index("organization_members_recognised_since_idx").on(t.organizationId, t.status, recognisedSince),
  ],
);

/**
 * Every word of every member's name, per membership: what Team Members and Pending Requests are
 * searched by, a word prefix being one range of the primary key however large the organisation.
 * A name's words are its lowercased full name split at spaces and hyphens (SQLite's lower(), which
 * folds ASCII letters only, on both sides of a search). Maintained by triggers (migration 0009,
 * docs/decisions/044), never written by the app; a membership's words go with it.
 */
export const memberNameWords = sqliteTable(
  "member_name_words",
  {
    organizationId: text("organization_id").notNull(),
    word: text("word").notNull(),
    membershipId: text("membership_id")
      .notNull()
      .references(() => organizationMembers.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.word, t.membershipId] }),
    index("member_name_words_membership_idx").on(t.membershipId),
  ],
);

/**
 * Recognition analytics' rollup (decision 037): per organisation, UTC day (days since the epoch)
 * and giver, how many achievements were given and how many of them are live (pending or
 * accepted). Maintained by triggers on achievements (migration 0008), never written by the app;
 * a range reads one row per day and giver, however many achievements it holds.
 */
export const recognitionDays = sqliteTable(
  "recognition_days",
  {
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    day: integer("day").notNull(),
    // The giver's user id; '' once the giver's account is purged (achievements.created_by null).
    givenBy: text("given_by").notNull(),
    live: integer("live").notNull().default(0),
    given: integer("given").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.day, t.givenBy] })],
);

export const achievements = sqliteTable(
  "achievements",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // Null for a self achievement.
    organizationId: text("organization_id").references(() => organizations.id, {
      onDelete: "cascade",
    }),
    // The giver. Null once the giver's account is purged: an achievement given to someone else
    // is theirs and stays (the giver then shows as a deleted account).
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    title: text("title").notNull(),
    description: text("description"),
    // Calendar date of the achievement, YYYY-MM-DD.
    date: text("date").notNull(),
    type: text("type", { enum: ACHIEVEMENT_TYPES }).notNull().default("award"),
    imageUrl: text("image_url"),
    videoUrl: text("video_url"),
    status: text("status", { enum: ACHIEVEMENT_STATUSES }).notNull().default("pending"),
    isVisible: integer("is_visible", { mode: "boolean" }).notNull().default(true),
    // The idempotency key of the form render that created it (decision 012): a resubmitted form
    // finds its row instead of adding a second one. Null for rows made without a form.
    submissionKey: text("submission_key"),
    // A membership entry ('Member of …', decision 070): the organisation it records, kept
    // without a foreign key so the entry outlives the organisation. Such an entry has no
    // organization_id, so recognition counts, analytics and their triggers never see it.
    membershipOrganizationId: text("membership_organization_id"),
    // The member's role when the entry's credential was signed ('admin' is said in it).
    membershipRole: text("membership_role", { enum: ROLES }),
    // YYYY-MM-DD when the membership ended (left, removed, organisation deleted); null while it lasts.
    membershipEndedOn: text("membership_ended_on"),
    // The entry's credential must be (re)signed: signing failed, or the organisation was deleted
    // (a trigger ends its entries; the cron signs their replacements in bounded batches).
    membershipSignDue: integer("membership_sign_due", { mode: "boolean" }).notNull().default(false),
    // Expiry and renewal (issue 33, decision 071). The first day it is no longer valid,
    // YYYY-MM-DD (its credential's `validUntil` is that day at 00:00 UTC); null: never expires.
    validUntil: text("valid_until"),
    // The entry this one renews (same organisation and recipient); its renewal count and the
    // first date of the chain are copied when it is given, so a card never walks the chain.
    renewsAchievementId: text("renews_achievement_id"),
    renewalCount: integer("renewal_count").notNull().default(0),
    firstGivenOn: text("first_given_on"),
    // Set on the older entry when its renewal is accepted: it is folded into the newer one's
    // history and leaves the passport lists, the expiry filters and the reminders.
    renewedBy: text("renewed_by"),
    // The last expiry reminder sent (30, then 7 days before): a rerun of the cron sends nothing twice.
    expiryRemindedDays: integer("expiry_reminded_days"),
    // Accepted while its credential could not be signed (issue 43): the frequent cron signs it,
    // with the achievement's media only if the recipient consented when accepting; null otherwise.
    credentialDue: text("credential_due", { enum: CREDENTIAL_DUE }),
    createdAt: createdAt(),
  },
  (t) => [
    check("achievements_type_check", inList("type", ACHIEVEMENT_TYPES)),
    // At most one open membership entry per person and organisation; also what ending one finds.
    uniqueIndex("achievements_open_membership_idx")
      .on(t.membershipOrganizationId, t.userId)
      .where(sql`membership_organization_id is not null and membership_ended_on is null`),
    // The cron's queue of entries whose credential is to be signed.
    index("achievements_membership_sign_due_idx")
      .on(t.membershipOrganizationId)
      .where(sql`membership_sign_due = 1`),
    // The cron's queue of accepted achievements whose credential is still to be signed, oldest first.
    index("achievements_credential_due_idx")
      .on(t.createdAt, t.id)
      .where(sql`credential_due is not null`),
    uniqueIndex("achievements_submission_key_idx").on(t.createdBy, t.userId, t.submissionKey),
    check("achievements_status_check", inList("status", ACHIEVEMENT_STATUSES)),
    // Public and own passport, paged (keyset) newest first: a user's accepted achievements by
    // date, then creation, the id breaking ties. Visibility is filtered on the way: the own
    // passport lists hidden ones too, and hidden entries are few.
    index("achievements_user_status_date_idx").on(t.userId, t.status, t.date, t.createdAt, t.id),
    // The own passport's pending offers, newest first (keyset).
    index("achievements_user_status_created_idx").on(t.userId, t.status, t.createdAt, t.id),
    // Organisation lists, counts and analytics over a date range; given achievements are paged
    // (keyset) newest first on (created_at, id).
    index("achievements_org_created_idx").on(t.organizationId, t.createdAt, t.id),
    index("achievements_org_user_created_idx").on(t.organizationId, t.userId, t.createdAt),
    // Top recognisers and purge of what a user created.
    index("achievements_created_by_idx").on(t.createdBy),
    // The daily expiry reminders (decision 071): live accepted entries by the day they expire.
    index("achievements_expiry_idx")
      .on(t.validUntil, t.id)
      .where(sql`valid_until is not null and status = 'accepted' and renewed_by is null`),
    // The given-achievements list's 'Expiring in 30 days' and 'Expired' filters, paged by expiry.
    index("achievements_org_valid_until_idx")
      .on(t.organizationId, t.validUntil, t.id)
      .where(sql`valid_until is not null and status = 'accepted' and renewed_by is null`),
    // One live renewal per entry: a second 'Renew' of the same entry (or a double submit) writes nothing.
    uniqueIndex("achievements_renews_idx")
      .on(t.renewsAchievementId)
      .where(sql`renews_achievement_id is not null and status != 'rejected'`),
  ],
);

export const notifications = sqliteTable(
  "notifications",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    message: text("message").notNull(),
    type: text("type", { enum: NOTIFICATION_TYPES }).notNull().default("info"),
    read: integer("read", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    check("notifications_type_check", inList("type", NOTIFICATION_TYPES)),
    // Notifications history, paged (keyset) newest first.
    index("notifications_user_created_idx").on(t.userId, t.createdAt, t.id),
    index("notifications_user_read_idx").on(t.userId, t.read),
  ],
);

// Who an admin removed or whose request an admin rejected: an invite code no longer lets them in
// (they may still ask to join, and an approval clears the row).
export const membershipRemovals = sqliteTable(
  "membership_removals",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.organizationId] })],
);

// Kept server-side between an organisation sign-up and its e-mail confirmation.
export const pendingOrganizationSetups = sqliteTable("pending_organization_setups", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  organizationName: text("organization_name").notNull(),
  organizationDescription: text("organization_description"),
  createdAt: createdAt(),
});

export const betaFeedback = sqliteTable(
  "beta_feedback",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    message: text("message").notNull(),
    rating: integer("rating"),
    // The idempotency key of the form render that sent it (decision 012).
    submissionKey: text("submission_key"),
    createdAt: createdAt(),
  },
  (t) => [
    check("beta_feedback_rating_check", sql`rating is null or rating between 1 and 5`),
    uniqueIndex("beta_feedback_submission_key_idx").on(t.userId, t.submissionKey),
  ],
);

// Stripe retries webhooks; an event id seen once is never applied twice.
export const processedStripeEvents = sqliteTable("processed_stripe_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  processedAt: integer("processed_at", { mode: "timestamp_ms" })
    .notNull()
    .$defaultFn(() => new Date()),
});

// Local stand-in for a mail provider: what would have been sent, readable at /dev/mail.
export const devMail = sqliteTable(
  "dev_mail",
  {
    id: id(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("dev_mail_to_created_idx").on(t.to, t.createdAt)],
);

// A stand-in for DNS (/dev/dns.json): TXT records that domain checks read outside production.
export const devDnsRecords = sqliteTable(
  "dev_dns_records",
  {
    id: id(),
    // Lowercase, without the trailing dot.
    name: text("name").notNull(),
    type: text("type").notNull(),
    data: text("data").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("dev_dns_records_name_idx").on(t.name, t.type)],
);

// A stand-in for the web (/dev/web.json): documents that outside fetches return outside production.
export const devWebDocuments = sqliteTable("dev_web_documents", {
  url: text("url").primaryKey(),
  contentType: text("content_type").notNull(),
  body: text("body").notNull(),
  createdAt: createdAt(),
});

// ---- Issuer domains (decision 055) ----

// A domain an organisation claims, proven by a DNS TXT record holding `token`. Verified domains
// are re-checked daily (`next_check_at`); three failed checks in a row make one lapsed. A domain
// is verified for at most one organisation at a time (the partial unique index); claiming it
// (pending) proves nothing, so several organisations may claim the same name.
export const organizationDomains = sqliteTable(
  "organization_domains",
  {
    id: id(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    domain: text("domain").notNull(),
    token: text("token").notNull(),
    status: text("status", { enum: DOMAIN_STATUSES }).notNull().default("pending"),
    verifiedAt: integer("verified_at", { mode: "timestamp_ms" }),
    lastCheckedAt: integer("last_checked_at", { mode: "timestamp_ms" }),
    // The organisation's name key when the domain was verified: an organisation of another
    // owner with the same key shows "Name not verified" (names never change once made).
    nameKey: text("name_key"),
    failedChecks: integer("failed_checks").notNull().default(0),
    nextCheckAt: integer("next_check_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [
    check("organization_domains_status_check", inList("status", DOMAIN_STATUSES)),
    uniqueIndex("organization_domains_org_domain_idx").on(t.organizationId, t.domain),
    uniqueIndex("organization_domains_verified_idx")
      .on(t.domain)
      .where(sql`status = 'verified'`),
    // The daily re-check reads only the verified domains that are due.
    index("organization_domains_due_idx")
      .on(t.nextCheckAt)
      .where(sql`status = 'verified'`),
    index("organization_domains_name_key_idx")
      .on(t.nameKey)
      .where(sql`status = 'verified'`),
  ],
);

// ---- Verifiable credentials (Open Badges 3.0, decision 020) ----
// None of these reference organizations or users: an organisation's DID document and status
// lists, and what it signed, must outlive the organisation and the recipient's account.

// The public half of each Ed25519 key an organisation has signed with. Private keys are derived
// from a Worker secret (HKDF) and never stored; every version stays in the DID document forever.
export const organizationKeys = sqliteTable(
  "organization_keys",
  {
    organizationId: text("organization_id").notNull(),
    version: integer("version").notNull(),
    publicKeyMultibase: text("public_key_multibase").notNull(),
    createdAt: createdAt(),
    // Set when the version is retired as compromised: it leaves the DID document's
    // assertionMethod, so what it signed stops verifying, and is never signed with again.
    retiredAt: integer("retired_at", { mode: "timestamp_ms" }),
  },
  (t) => [uniqueIndex("organization_keys_org_version_idx").on(t.organizationId, t.version)],
);

// One W3C Bitstring Status List (revocation) per organisation, with room for STATUS_LIST_SIZE
// entries. `credential` is the signed BitstringStatusListCredential as served, and the source of
// the bits: a revocation decodes its list, sets one bit and signs again. `revision` guards
// concurrent revocations (compare-and-set), as D1 has no interactive transactions.
export const credentialStatusLists = sqliteTable(
  "credential_status_lists",
  {
    id: id(),
    organizationId: text("organization_id").notNull(),
    nextIndex: integer("next_index").notNull().default(0),
    revision: integer("revision").notNull().default(0),
    credential: text("credential"),
    createdAt: createdAt(),
  },
  (t) => [index("credential_status_lists_org_idx").on(t.organizationId, t.createdAt)],
);

// The signed OpenBadgeCredential of an accepted organisation achievement, stored as signed so
// that serving it never signs. A purged recipient leaves only the revoked shell (json null).
export const credentials = sqliteTable(
  "credentials",
  {
    id: id(),
    achievementId: text("achievement_id").references(() => achievements.id, { onDelete: "set null" }),
    organizationId: text("organization_id").notNull(),
    userId: text("user_id"),
    statusListId: text("status_list_id")
      .notNull()
      .references(() => credentialStatusLists.id),
    statusIndex: integer("status_index").notNull(),
    json: text("json"),
    issuedAt: integer("issued_at", { mode: "timestamp_ms" }).notNull(),
    revokedAt: integer("revoked_at", { mode: "timestamp_ms" }),
    // The credential that replaced this one (a membership's dated credential, decision 070): this
    // one is superseded, not revoked, still verifies, and no longer belongs to an achievement.
    supersededBy: text("superseded_by"),
  },
  (t) => [
    uniqueIndex("credentials_achievement_idx").on(t.achievementId),
    uniqueIndex("credentials_status_idx").on(t.statusListId, t.statusIndex),
    index("credentials_org_issued_idx").on(t.organizationId, t.issuedAt),
    index("credentials_user_idx").on(t.userId),
  ],
);

// A one-time exchange with a holder's wallet (the Learner Credential Wallet's "request" deep link,
// answered as VC-API exchanges answer): made by the person on /passport, valid 15 minutes, used
// once. `challenge` (128 random bits) is what the wallet's DIDAuth presentation must sign;
// `holder` is the DID that signed it. The daily cron deletes rows past `expires_at`.
export const walletExchanges = sqliteTable(
  "wallet_exchanges",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // The achievement handed out or accepted; null for "import", which proves a wallet for an import.
    achievementId: text("achievement_id").references(() => achievements.id, { onDelete: "cascade" }),
    // The credential handed out (purpose "issue"); null for "accept", whose achievement is still pending.
    credentialId: text("credential_id").references(() => credentials.id, { onDelete: "cascade" }),
    // Purpose "import" (decision 099): the nonce of the person's pending import whose wallet DID
    // the DIDAuth proves; the DID it proved is `holder`.
    importNonce: text("import_nonce"),
    purpose: text("purpose", { enum: WALLET_EXCHANGE_PURPOSES }).notNull(),
    challenge: text("challenge").notNull(),
    holder: text("holder"),
    createdAt: createdAt(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    usedAt: integer("used_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    index("wallet_exchanges_expires_idx").on(t.expiresAt),
    index("wallet_exchanges_user_idx").on(t.userId),
    check("wallet_exchanges_purpose_check", inList("purpose", WALLET_EXCHANGE_PURPOSES)),
  ],
);

/**
 * OpenID4VCI (issue 31, decision 065), one table for its three short-lived, single-use rows:
 * - `offer`: a credential offer made with 'Add to wallet' (beside its exchange): `id` is the offer's
 *   id in its `credential_offer_uri`, `code` the pre-authorised code, `tx_code` the 6 digits shown
 *   to the person; 10 minutes, spent by the token request.
 * - `token`: an access token for the offer's one credential: `id` is the SHA-256 of the token
 *   (the token itself is only ever in the token response); 5 minutes, spent by the credential
 *   request, which records the `holder` DID it issued to.
 * - `nonce`: a `c_nonce` (`id`), 5 minutes, spent by the proof that signs it.
 * The daily clean-up deletes them past `expires_at`.
 */
export const openid4vciGrants = sqliteTable(
  "openid4vci_grants",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: OPENID4VCI_GRANT_KINDS }).notNull(),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    exchangeId: text("exchange_id").references(() => walletExchanges.id, { onDelete: "cascade" }),
    credentialId: text("credential_id").references(() => credentials.id, { onDelete: "cascade" }),
    code: text("code"),
    txCode: text("tx_code"),
    // Wrong transaction codes given with the offer's pre-authorised code: the fifth spends it.
    txAttempts: integer("tx_attempts").notNull().default(0),
    holder: text("holder"),
    createdAt: createdAt(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    usedAt: integer("used_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    uniqueIndex("openid4vci_grants_code_idx").on(t.code),
    index("openid4vci_grants_exchange_idx").on(t.exchangeId),
    index("openid4vci_grants_expires_idx").on(t.expiresAt),
    check("openid4vci_grants_kind_check", inList("kind", OPENID4VCI_GRANT_KINDS)),
  ],
);

// The wallet DIDs a person's credentials were issued to (decisions 064, 066): one row per
// credential and DID, written when a wallet exchange is answered, kept after the exchange row is
// deleted, until the person forgets the DID in Settings. The credential's download is bound to its
// newest remembered DID.
export const credentialHolders = sqliteTable(
  "credential_holders",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    credentialId: text("credential_id")
      .notNull()
      .references(() => credentials.id, { onDelete: "cascade" }),
    holder: text("holder").notNull(),
    issuedAt: integer("issued_at", { mode: "timestamp_ms" }).notNull(),
    // The copy issued to the holder, as signed when the exchange was spent (issue 43): downloads
    // serve it and sign nothing. Null for rows from before; their first download stores one.
    credentialJson: text("credential_json"),
  },
  (t) => [
    uniqueIndex("credential_holders_credential_holder_idx").on(t.credentialId, t.holder),
    // Settings lists a person's DIDs, newest first; forgetting deletes by (user, holder).
    index("credential_holders_user_holder_idx").on(t.userId, t.holder, t.issuedAt),
  ],
);

// A badge or credential someone imported (issue 32, decision 069): its timeline entry is an
// achievement of their own (organization_id null), and this row says what was verified. The
// original file is kept in R2 at `original_key`, offered back to its owner; the daily cron re-checks
// rows in order of `checked_at` (a bounded batch per run) and records a revocation.
export const importedCredentials = sqliteTable(
  "imported_credentials",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    achievementId: text("achievement_id")
      .notNull()
      .references(() => achievements.id, { onDelete: "cascade" }),
    // The issuer and the credential's id (or its content's hash): one person imports an award once.
    importKey: text("import_key").notNull(),
    format: text("format").notNull(),
    // The issuer in words: a did:web's or an OB 2.0 issuer's host, or 'Issuer not identified'.
    issuerIdentity: text("issuer_identity").notNull(),
    // Who stands behind the issuer's name (issue 43): a domain its DID configuration linked to it
    // at the last check; or one of our organisations (no foreign key: what it signed outlives
    // it), whose verified domain is read when shown; and its name as organisations' names are
    // compared ("Name not verified" when an organisation with a verified domain has it). Null on
    // rows kept before these were recorded, until their next daily re-check.
    issuerDomain: text("issuer_domain"),
    issuerOrganizationId: text("issuer_organization_id"),
    issuerNameKey: text("issuer_name_key"),
    // The wallet DID the credential was issued to, when a DIDAuth made for this import proved it
    // the person's (decision 099): the daily re-check matches the recipient against it alone.
    holderDid: text("holder_did"),
    status: text("status", { enum: IMPORT_STATUSES }).notNull(),
    revokedAt: integer("revoked_at", { mode: "timestamp_ms" }),
    checkedAt: integer("checked_at", { mode: "timestamp_ms" }).notNull(),
    originalKey: text("original_key").notNull(),
    originalName: text("original_name").notNull(),
    originalType: text("original_type").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check("imported_credentials_status_check", inList("status", IMPORT_STATUSES)),
    uniqueIndex("imported_credentials_user_key_idx").on(t.userId, t.importKey),
    uniqueIndex("imported_credentials_achievement_idx").on(t.achievementId),
    // The daily re-check takes the longest unchecked first.
    index("imported_credentials_checked_idx").on(t.checkedAt),
  ],
);

// The proof that the holder accepted an achievement (decision 066): the DIDAuth presentation their
// wallet signed over the 'Accept with my wallet' exchange's challenge, stored as received and
// served to anyone at /credentials/{id}/acceptance.
export const achievementAcceptances = sqliteTable("achievement_acceptances", {
  achievementId: text("achievement_id")
    .primaryKey()
    .references(() => achievements.id, { onDelete: "cascade" }),
  userId: text("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  holder: text("holder").notNull(),
  // The exchange answered (its row is deleted later by the cron; the id stays as a reference).
  exchangeId: text("exchange_id").notNull(),
  challenge: text("challenge").notNull(),
  presentation: text("presentation").notNull(),
  signedAt: integer("signed_at", { mode: "timestamp_ms" }).notNull(),
});

// A person's other e-mail addresses (issue 32, decision 068): added in Settings, confirmed by a
// link mailed to the address, used only to match imported credentials to their owner (sign-in stays
// the account's one address). `address` is normalised as the account's e-mail is (trimmed,
// lower-cased). `token_hash` is the SHA-256 (hex) of the link's token, which is only ever in the
// mail; the link works until `expires_at`, once, and only for the person who added the address.
// An address is confirmed by at most one person (the partial unique index); pending rows of the
// same address may wait under several people, the first to confirm wins.
export const otherAddresses = sqliteTable(
  "other_addresses",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    address: text("address").notNull(),
    tokenHash: text("token_hash").notNull(),
    /** When the latest link was mailed (a resend replaces the token and moves this on). */
    sentAt: integer("sent_at", { mode: "timestamp_ms" }).notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    confirmedAt: integer("confirmed_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("other_addresses_user_address_idx").on(t.userId, t.address),
    uniqueIndex("other_addresses_token_idx").on(t.tokenHash),
    uniqueIndex("other_addresses_confirmed_idx")
      .on(t.address)
      .where(sql`confirmed_at is not null`),
    // The daily clean-up finds pending addresses whose link lapsed long ago.
    index("other_addresses_expires_idx").on(t.expiresAt),
  ],
);

// Each file a person keeps in R2 that counts towards their storage quota (decision 074): the
// avatar, the introduction video and its thumbnail, a self achievement's media and an imported
// credential's original. Written and deleted in the same batch as the row that points at the file.
export const storedFiles = sqliteTable(
  "stored_files",
  {
    key: text("key").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    bytes: integer("bytes").notNull(),
    // Set when the row that pointed at the file let go of it (decision 077): the file no longer
    // counts, and this row names it until R2 has deleted it, so a failed delete leaves no object
    // that nothing names; the frequent cron retries what a request could not delete.
    releasedAt: integer("released_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("stored_files_user_idx").on(t.userId),
    index("stored_files_released_idx")
      .on(t.releasedAt)
      .where(sql`released_at is not null`),
  ],
);

// An Open Badges 3.0 EndorsementCredential about an accepted achievement (issue 33, decision 072),
// signed by a person's own did:web key or, for an organisation (`endorser_organization_id`), by
// the organisation's. The owner of the achievement (`owner_id`) shows or hides it; only shown ones
// reach the public passport. One per person, and one per organisation, per achievement.
// `endorser_name` is the name signed into the credential (it is what the passport shows).
export const endorsements = sqliteTable(
  "endorsements",
  {
    id: id(),
    achievementId: text("achievement_id")
      .notNull()
      .references(() => achievements.id, { onDelete: "cascade" }),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // Who made it (an organisation's admin for an organisation): a purged account leaves it unsigned by anyone here.
    endorserId: text("endorser_id").references(() => users.id, { onDelete: "set null" }),
    // No foreign key, as for credentials: what an organisation signed outlives it.
    endorserOrganizationId: text("endorser_organization_id"),
    endorserName: text("endorser_name").notNull(),
    comment: text("comment").notNull(),
    status: text("status", { enum: ENDORSEMENT_STATUSES }).notNull().default("pending"),
    credential: text("credential").notNull(),
    createdAt: createdAt(),
    decidedAt: integer("decided_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    check("endorsements_status_check", inList("status", ENDORSEMENT_STATUSES)),
    uniqueIndex("endorsements_person_idx")
      .on(t.achievementId, t.endorserId)
      .where(sql`endorser_organization_id is null`),
    uniqueIndex("endorsements_organization_idx")
      .on(t.achievementId, t.endorserOrganizationId)
      .where(sql`endorser_organization_id is not null`),
    // The owner's list, newest first; each passport card's shown ones.
    index("endorsements_owner_idx").on(t.ownerId, t.createdAt, t.id),
    // An entry's shown endorsements in the order its endorsements page lists them (decision 079).
    index("endorsements_achievement_idx").on(t.achievementId, t.status, t.createdAt, t.id),
    index("endorsements_endorser_idx").on(t.endorserId, t.createdAt),
  ],
);

/**
 * What an account's purge erased from the live bucket, to be erased from the media backup too
 * (issue 43) once the backup's lock lets go of it (`dueAt`): an object's key, or a prefix that
 * named the person's files. A row stays until its objects are gone from the backup.
 */
export const backupErasures = sqliteTable(
  "backup_erasures",
  {
    target: text("target").primaryKey(),
    isPrefix: integer("is_prefix", { mode: "boolean" }).notNull(),
    dueAt: integer("due_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("backup_erasures_due_idx").on(t.dueAt)],
);
