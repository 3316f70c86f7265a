import { and, eq, gt, isNotNull, lt, ne, notInArray, sql, type SQL } from "drizzle-orm";
import { batchSql, type Db } from "../client.ts";
import { deleteAllMembershipsStatements, founderMembershipSql } from "./memberships/writes.ts";
import { organizationNameKey } from "./name-key.ts";
import {
  accounts,
  achievements,
  newInviteCode,
  organizations,
  pendingOrganizationSetups,
  profiles,
  sessions,
  users,
  verifications,
  type UserType,
} from "../schema.ts";

/**
 * Records what a sign-up chose (account type, and the organisation to create on confirmation).
 * Writes nothing unless the user row exists: the auth library answers a sign-up for a taken
 * address with a made-up user, and that must not touch the real account.
 */
export async function recordSignUp(
  db: Db,
  input: {
    userId: string;
    fullName: string;
    userType: UserType;
    organization?: { name: string; description: string | null };
  },
) {
  const now = Date.now();
  const statements = [
    sql`insert or ignore into profiles (id, full_name, user_type, is_public, created_at, updated_at)
      select ${input.userId}, ${input.fullName}, ${input.userType}, 1, ${now}, ${now}
      where exists (select 1 from users where id = ${input.userId} and email_verified = 0)`,
  ];
  if (input.organization) {
    statements.push(
      sql`insert or replace into pending_organization_setups (user_id, organization_name, organization_description, created_at)
        select ${input.userId}, ${input.organization.name}, ${input.organization.description}, ${now}
        where exists (select 1 from users where id = ${input.userId} and email_verified = 0)`,
    );
  }
  await batchSql(db, statements);
}

export async function findPendingOrganizationSetup(db: Db, userId: string) {
  const [row] = await db
    .select({ organizationName: pendingOrganizationSetups.organizationName })
    .from(pendingOrganizationSetups)
    .where(eq(pendingOrganizationSetups.userId, userId))
    .limit(1);
  return row ?? null;
}

/**
 * After the e-mail is confirmed: makes sure the profile exists and turns a pending organisation
 * setup into an organisation with the user as admin and approved member. One batch (one
 * transaction in D1) that claims the setup by deleting it, so opening the link twice, even at
 * the same moment, creates one organisation. True when this call created it.
 */
export async function completeSignUp(db: Db, user: { id: string; name: string }): Promise<boolean> {
  const now = Date.now();
  const organizationId = crypto.randomUUID();
  const setupExists = sql`exists (select 1 from pending_organization_setups where user_id = ${user.id})`;
  const organizationCreated = sql`exists (select 1 from organizations where id = ${organizationId})`;
  const [, organizationInsert] = await batchSql(db, [
    sql`insert or ignore into profiles (id, full_name, user_type, is_public, created_at, updated_at)
      values (${user.id}, ${user.name}, 'individual', 1, ${now}, ${now})`,
    sql`insert into organizations (id, name, description, invite_code, created_at)
      select ${organizationId}, organization_name, organization_description, ${newInviteCode()}, ${now}
      from pending_organization_setups where user_id = ${user.id} returning name`,
    ...founderMembershipSql(
      { userId: user.id, organizationId },
      { now, when: sql`${organizationCreated} and ${setupExists}` },
    ),
    sql`update profiles set active_organization_id = ${organizationId}, updated_at = ${now}
      where id = ${user.id} and ${organizationCreated} and ${setupExists}`,
    sql`delete from pending_organization_setups where user_id = ${user.id}`,
  ]);
  const created = (organizationInsert?.meta.changes ?? 0) > 0;
  // Its name key is a skeleton, which SQL cannot compute (issue 43, decision 092): written now.
  const name = (organizationInsert?.results[0] as { name?: string } | undefined)?.name;
  if (created && name) {
    await db
      .update(organizations)
      .set({ nameKey: organizationNameKey(name) })
      .where(eq(organizations.id, organizationId));
  }
  return created;
}

/** Archive: hide the account, drop memberships and roles, end every other session. */
export async function archiveAccount(db: Db, userId: string, keepSessionId: string | null, now = new Date()) {
  await db.batch([
    db.update(profiles).set({ deletedAt: now, activeOrganizationId: null }).where(eq(profiles.id, userId)),
    ...deleteAllMembershipsStatements(db, { userId }),
    db
      .delete(sessions)
      .where(
        keepSessionId ? and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)) : eq(sessions.userId, userId),
      ),
  ]);
}

/** Signing in again within the grace period brings the account back (memberships stay gone). */
export async function reactivateAccount(db: Db, userId: string) {
  await db.update(profiles).set({ deletedAt: null }).where(eq(profiles.id, userId));
}

export async function findAccountsArchivedBefore(db: Db, cutoff: Date, limit: number, excluding: string[] = []) {
  const rows = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(
      and(
        isNotNull(profiles.deletedAt),
        lt(profiles.deletedAt, cutoff),
        excluding.length ? notInArray(profiles.id, excluding) : undefined,
      ),
    )
    .limit(limit);
  return rows.map((row) => row.id);
}

/**
 * Media URLs on achievements the user received (their self achievements included), which are
 * purged with them. Achievements they gave others stay, with their media.
 */
export async function findAchievementMediaOf(db: Db, userId: string) {
  return db
    .select({ imageUrl: achievements.imageUrl, videoUrl: achievements.videoUrl })
    .from(achievements)
    .where(eq(achievements.userId, userId));
}

/** Deletes the user; every row that belongs to them goes with it through ON DELETE CASCADE. */
export async function deleteUser(db: Db, userId: string) {
  await db.delete(users).where(eq(users.id, userId));
}

/**
 * The account a forgot-password token belongs to while the token is unused and unexpired
 * (the auth library stores it as `reset-password:{token}` with the user id as its value).
 */
export async function findPasswordResetAccount(db: Db, token: string, now = new Date()) {
  const [row] = await db
    .select({ id: users.id, email: users.email, name: users.name, emailVerified: users.emailVerified })
    .from(verifications)
    .innerJoin(users, eq(users.id, verifications.value))
    .where(and(eq(verifications.identifier, `reset-password:${token}`), gt(verifications.expiresAt, now)))
    .limit(1);
  return row ?? null;
}

/**
 * A forgot-password token for the account, stored as the auth library stores the ones it mails
 * (it consumes them in resetPassword): for a reset link mailed by the product itself.
 */
export async function createPasswordResetToken(db: Db, userId: string, seconds: number, now = new Date()) {
  const token = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(18))))
    .replaceAll("+", "-")
    .replaceAll("/", "_");
  await db.insert(verifications).values({
    identifier: `reset-password:${token}`,
    value: userId,
    expiresAt: new Date(now.getTime() + seconds * 1000),
  });
  return token;
}

/** A reset link proves the mailbox is the owner's: an unconfirmed address counts as confirmed. */
export async function markEmailVerified(db: Db, userId: string) {
  await db.update(users).set({ emailVerified: true }).where(eq(users.id, userId));
}

/** The account holding an address (addresses are stored lower-case), confirmed or not. */
export async function findAccountByEmail(db: Db, email: string) {
  const [account] = await db
    .select({ id: users.id, name: users.name, email: users.email, emailVerified: users.emailVerified })
    .from(users)
    .where(eq(users.email, email.toLowerCase()))
    .limit(1);
  return account ?? null;
}

/** The address's unconfirmed account, with its name, user type and whether its profile was written. */
export async function findUnconfirmedSignUp(db: Db, email: string) {
  const [account] = await db
    .select({ id: users.id, name: users.name, userType: profiles.userType })
    .from(users)
    .leftJoin(profiles, eq(profiles.id, users.id))
    .where(and(eq(users.email, email.toLowerCase()), eq(users.emailVerified, false)))
    .limit(1);
  return account ?? null;
}

/** The hash of the account's password (null without one), to check a password outside signing in. */
export async function findPasswordHash(db: Db, userId: string) {
  const [row] = await db
    .select({ hash: accounts.password })
    .from(accounts)
    .where(and(eq(accounts.userId, userId), eq(accounts.providerId, "credential")))
    .limit(1);
  return row?.hash ?? null;
}

/**
 * A new sign-up for an address whose account was never confirmed replaces that account: the
 * unconfirmed one (its password, name, type, pending organisation, sessions and links) goes, so
 * whoever signed up first, perhaps not the address's owner, keeps no way in. Confirmed accounts
 * are never touched. Its confirmation links name its user id, which no longer exists.
 */
export async function deleteUnconfirmedAccount(db: Db, email: string) {
  await db.delete(users).where(and(eq(users.email, email.toLowerCase()), eq(users.emailVerified, false)));
}

/**
 * A session row by its token (the cookie's, already verified as signed by us), with the columns
 * the auth library's own lookup returns, for the guard's batch (docs/decisions/036).
 */
export function sessionByTokenQuery(db: Db, token: string) {
  return db.select().from(sessions).where(eq(sessions.token, token)).limit(1);
}

/** A user row with the columns the auth library returns, as a statement for a batch. */
export function sessionUserQuery(db: Db, userId: string | SQL<string>) {
  return db.select().from(users).where(eq(users.id, userId)).limit(1);
}

/** The id of the user a session token belongs to, as an expression: rows keyed by it join the same batch. */
export const userIdOfSession = (token: string): SQL<string> =>
  sql<string>`(select ${sessions.userId} from ${sessions} where ${sessions.token} = ${token})`;

/**
 * Records that the session used a strong factor since it was signed in (a step-up, or the first
 * factor set up in it: decision 089). Keyed by the session and its owner: another's id changes nothing.
 */
export async function markSessionStrong(
  db: Db,
  { sessionId, userId, factor }: { sessionId: string; userId: string; factor: "code" | "passkey" },
) {
  await db
    .update(sessions)
    .set({ strongFactor: factor })
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)));
}

/** Ends one session, by its token (a session started where it should not have been). */
export async function deleteSessionByToken(db: Db, token: string) {
  await db.delete(sessions).where(eq(sessions.token, token));
}

/** Unconfirmed sign-ups older than the cutoff: nobody proved the address; the cron deletes them. */
export async function deleteUnconfirmedAccountsBefore(db: Db, cutoff: Date) {
  const result = await db.run(
    sql`delete from users where id in (select id from users where email_verified = 0 and created_at < ${cutoff.getTime()} limit 500)`,
  );
  return result.meta.changes ?? 0;
}

const CLEANUP_TABLES = new Set([
  "rate_limits",
  "verifications",
  "sessions",
  "dev_mail",
  "wallet_exchanges",
  "other_addresses",
  "openid4vci_grants",
]);

/** Deletes the rows of one housekeeping table matching `where`, 500 at a time, at most 20 rounds. */
export async function deleteInBatches(db: Db, table: string, where: SQL) {
  if (!CLEANUP_TABLES.has(table)) throw new Error(`not a housekeeping table: ${table}`);
  let deleted = 0;
  for (let round = 0; round < 20; round++) {
    const result = await db.run(
      sql`delete from ${sql.identifier(table)} where rowid in (select rowid from ${sql.identifier(table)} where ${where} limit 500)`,
    );
    const changes = result.meta.changes ?? 0;
    deleted += changes;
    if (changes < 500) break;
  }
  return deleted;
}
