import type { ServiceContext } from "./context.server.ts";
import type { Db } from "#db/client.ts";
import {
  archiveAccount,
  deleteUser,
  findAccountsArchivedBefore,
  findAchievementMediaOf,
  deleteInBatches,
  deleteUnconfirmedAccountsBefore,
  reactivateAccount,
} from "#db/queries/accounts.ts";
import { sql } from "drizzle-orm";
import { revokeCredentialsOfUser } from "#db/queries/credentials/stored.ts";
import { log } from "#app/utils/log.server.ts";
import { closeNotificationSockets } from "#app/utils/person-hub.server.ts";
import { findSoleAdminOrganizations } from "#db/queries/memberships/authorization.ts";
import { findMembershipIdsOf } from "#db/queries/memberships/person-memberships.ts";
import { cancelStripeSubscriptionOf } from "#app/utils/stripe.server.ts";
import { endEverySubscriptionPaidBy, endSubscriptionsPaidBy, type BillingWork } from "./payer-subscriptions.server.ts";
import { ARCHIVE_GRACE_DAYS } from "#app/utils/constants.ts";
import { invalidatePassports, type PassportCacheEnv } from "#app/utils/passport-cache.server.ts";
import { deletePersonalEndorsementsBy } from "#db/queries/endorsements.ts";
import { endMembershipsOf } from "./membership-entries.server.ts";
import { deleteByPrefix, deleteMedia, mediaKeys, userMediaPrefixes } from "#app/utils/media.server.ts";
import { noteBackupErasures } from "#db/queries/backup-erasures.ts";

/**
 * Why this account may not be archived yet, or null. Archiving removes its roles, so an
 * organisation whose only admin it is would be left with nobody to run it.
 */
export async function archiveRefusal(context: Pick<ServiceContext, "db">, userId: string) {
  const organizations = await findSoleAdminOrganizations(context.db, { userId });
  if (organizations.length === 0) return null;
  const names = organizations.map((organization) => organization.name).join(", ");
  return `You are the only admin of ${names}. Make another member an admin, or delete the organisation, first.`;
}

/**
 * Archive: first stops every Stripe subscription paid for the user's memberships (as Remove and
 * Leave do; a failure there throws and nothing is archived), then hides the account, drops its
 * memberships and roles, ends its other sessions and closes its notification sockets.
 */
export async function archiveUser(context: ServiceContext, userId: string, keepSessionId: string | null) {
  for (const membershipId of await findMembershipIdsOf(context.db, { userId })) {
    await cancelStripeSubscriptionOf(context, membershipId);
  }
  await archiveAccount(context.db, userId, keepSessionId);
  // Its memberships are gone: their 'Member of …' entries end today (decision 070).
  await endMembershipsOf(context, userId);
  // Archived, the person runs no organisation: what they pay for anywhere ends, and a Stripe
  // failure is left to the daily sweep rather than undo the archive (decision 059).
  await endSubscriptionsPaidBy(context, { payerId: userId }, "archived");
  await invalidatePassports(context.env, userId);
  context.cloudflare.ctx.waitUntil(closeNotificationSockets(context, userId));
}

/** Reactivate: the archived account is shown again (its memberships and roles stay gone). */
export async function reactivateUser(context: ServiceContext, userId: string) {
  await reactivateAccount(context.db, userId);
  await invalidatePassports(context.env, userId);
}

const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * How long the media backup's bucket lock keeps every copy (docs/operations.md), and a day more:
 * erasing a copy sooner would fail.
 */
export const BACKUP_LOCK_DAYS = 36;

/** Where one account's data lives, and the environment its passport's cache purge and Stripe need. */
export type AccountStores = { db: Db; media: R2Bucket; env: PassportCacheEnv & BillingWork["env"] };

/**
 * Deletes every R2 object and every row of one user. Objects go first: if that fails, the rows
 * remain and the next run tries again, so nothing is left orphaned in R2.
 */
export async function purgeUser({ db, media, env }: AccountStores, userId: string) {
  // Deleting the user forgets who pays (subscribed_by is set null): every subscription the person
  // still pays for ends first, or the purge fails and the next run tries again (decision 059).
  await endEverySubscriptionPaidBy({ db, env }, userId);
  const achievementMedia = await findAchievementMediaOf(db, userId);
  const mediaUrls = achievementMedia.flatMap((row) => [row.imageUrl, row.videoUrl]);
  // The backup keeps its copies until its lock lets go of them; then they go too (issue 43).
  await noteBackupErasures(
    db,
    [
      ...mediaKeys(mediaUrls).map((target) => ({ target, isPrefix: false })),
      ...userMediaPrefixes(userId).map((target) => ({ target, isPrefix: true })),
    ],
    new Date(Date.now() + BACKUP_LOCK_DAYS * DAY_MS),
  );
  await deleteMedia(media, mediaUrls);
  for (const prefix of userMediaPrefixes(userId)) await deleteByPrefix(media, prefix);
  // The person's credentials are revoked and forgotten (decision 020): copies they handed out
  // verify as revoked, and only revoked shells without their data stay.
  await revokeCredentialsOfUser(db, userId);
  // Their endorsements as themselves too (decision 072): shown ones leave others' passports.
  const endorsed = await deletePersonalEndorsementsBy(db, userId);
  await deleteUser(db, userId);
  const owners = new Set(endorsed.filter((row) => row.status === "shown").map((row) => row.ownerId));
  await invalidatePassports(env, userId, ...owners);
}

const PURGE_BATCH_SIZE = 50;
const MAX_BATCHES_PER_RUN = 10;

/**
 * The daily cron: purges accounts archived more than the grace period ago, in bounded batches
 * (what does not fit in one run waits for the next). One account that fails to purge (an R2 or
 * D1 error) is logged and skipped for this run, never stopping the others. Returns the ids
 * purged and those that failed.
 */
export async function purgeExpiredAccounts(
  stores: AccountStores,
  now = new Date(),
  purge: (userId: string) => Promise<void> = (userId) => purgeUser(stores, userId),
) {
  const { db } = stores;
  const cutoff = new Date(now.getTime() - ARCHIVE_GRACE_DAYS * DAY_MS);
  const purged: string[] = [];
  const failed: string[] = [];
  for (let batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
    const userIds = await findAccountsArchivedBefore(db, cutoff, PURGE_BATCH_SIZE, failed);
    for (const userId of userIds) {
      try {
        await purge(userId);
        purged.push(userId);
      } catch (error) {
        failed.push(userId);
        log("error", "purge failed", { userId, error: error instanceof Error ? error.stack : String(error) });
      }
    }
    // Failed ids are excluded by binding them; past a statement's parameter limit, wait a day.
    if (userIds.length < PURGE_BATCH_SIZE || failed.length > MAX_FAILED_PER_RUN) break;
  }
  return { purged, failed };
}
const MAX_FAILED_PER_RUN = 80;

/** Unconfirmed sign-ups are kept this long: the confirmation link lives 1 day; this is generous. */
export const UNCONFIRMED_ACCOUNT_DAYS = 7;
/** Dev mailbox rows are for reading a link now, not for keeping. */
const DEV_MAIL_DAYS = 7;

/**
 * The cron's housekeeping: unconfirmed accounts older than 7 days, rate-limit counters whose
 * window has long passed, expired tokens (confirmation, password reset) and sessions, and old
 * dev-mailbox rows, expired wallet exchanges and OpenID4VCI rows, and other e-mail addresses
 * never confirmed. Each delete is bounded and repeated a bounded number of times.
 */
export async function cleanUpExpiredRows(db: Db, now = new Date()) {
  const at = now.getTime();
  return {
    unconfirmedAccounts: await deleteUnconfirmedAccountsBefore(db, new Date(at - UNCONFIRMED_ACCOUNT_DAYS * DAY_MS)),
    // The longest rate-limit window is an hour; a day later the counter says nothing.
    rateLimits: await deleteInBatches(db, "rate_limits", sql`last_request < ${at - DAY_MS}`),
    verifications: await deleteInBatches(db, "verifications", sql`expires_at < ${at}`),
    sessions: await deleteInBatches(db, "sessions", sql`expires_at < ${at}`),
    devMail: await deleteInBatches(db, "dev_mail", sql`created_at < ${at - DEV_MAIL_DAYS * DAY_MS}`),
    // Used or not, an exchange past its 15 minutes can never be answered (decision 064).
    walletExchanges: await deleteInBatches(db, "wallet_exchanges", sql`expires_at < ${at}`),
    // OpenID4VCI offers, tokens and nonces: none is any use past its expiry (decision 065).
    openid4vciGrants: await deleteInBatches(db, "openid4vci_grants", sql`expires_at < ${at}`),
    // Other e-mail addresses never confirmed, a week after their link lapsed (decision 068).
    otherAddresses: await deleteInBatches(
      db,
      "other_addresses",
      sql`confirmed_at is null and expires_at < ${at - UNCONFIRMED_ACCOUNT_DAYS * DAY_MS}`,
    ),
  };
}
