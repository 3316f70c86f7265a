// Who may do what in an organisation: admin roles, a person's membership and what an action on
// one needs to know, and the condition a giving INSERT carries.
import { and, eq, exists, not, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../client.ts";
import { organizationMembers, organizationRoles, organizations, passkeys, profiles, users } from "../../schema.ts";
import { countAchievementsFromQuery } from "../achievements/writes.ts";
import type { MemberKey } from "./keys.ts";

const isAdminOf = ({ userId, organizationId }: MemberKey) =>
  and(
    eq(organizationRoles.userId, userId),
    eq(organizationRoles.organizationId, organizationId),
    eq(organizationRoles.role, "admin"),
  );
const memberOf = ({ userId, organizationId }: MemberKey) =>
  and(eq(organizationMembers.userId, userId), eq(organizationMembers.organizationId, organizationId));
const adminsOf = (organizationId: string) =>
  and(eq(organizationRoles.organizationId, organizationId), eq(organizationRoles.role, "admin"));

/**
 * Whether the person holds a strong factor (decision 062): two-factor sign-in on, or a passkey.
 * `userId` may be a column or an expression (the session's user); neither table may be in the
 * enclosing query, whose names these would shadow.
 */
export const holdsStrongFactor = (userId: string | SQL | typeof organizationRoles.userId) =>
  sql<number>`(exists (select 1 from ${users} where ${users.id} = ${userId} and ${users.twoFactorEnabled} = 1)
    or exists (select 1 from ${passkeys} where ${passkeys.userId} = ${userId}))`;

/**
 * Whether the organisation holds the person back as its admin: it asks its admins for a strong
 * factor (`requireTwoFactor`, the column of the organisation in the enclosing query) and they
 * hold none. Only the flag is read when the organisation asks nothing.
 */
export const strongFactorMissing = (
  userId: string | SQL | typeof organizationRoles.userId,
  requireTwoFactor: SQL | typeof organizations.requireTwoFactor = organizations.requireTwoFactor,
) => sql<boolean>`(${requireTwoFactor} = 1 and not ${holdsStrongFactor(userId)})`.mapWith(Boolean);

/**
 * Whether the organisation asks its admins for a strong factor at all: then the session acting as
 * its admin must have used one (decision 089), which the caller knows and SQL does not.
 */
export const strongFactorRequired = () => sql<boolean>`${organizations.requireTwoFactor}`.mapWith(Boolean);

/**
 * The person's admin role in the organisation, as a guard needs it: null when they have none,
 * else the organisation's name, whether it holds them back until they set up a strong factor,
 * and whether it asks its admins' sessions for one.
 */
export async function findAdminRole(db: Db, key: MemberKey) {
  const [row] = await adminRoleQuery(db, key);
  return row ?? null;
}

/** The same read as a statement (a row when the person is the organisation's admin). */
export function adminRoleQuery(db: Db, key: MemberKey) {
  return db
    .select({
      organizationName: organizations.name,
      strongFactorMissing: strongFactorMissing(key.userId),
      strongFactorRequired: strongFactorRequired(),
    })
    .from(organizationRoles)
    .innerJoin(organizations, eq(organizations.id, organizationRoles.organizationId))
    .where(isAdminOf(key))
    .limit(1);
}

/**
 * A row while the person may act as the organisation's admin: the role, and the strong factor it
 * asks for, of the account and (`usedStrongFactor`: the caller's session used one) of the session.
 */
function actingAdminQuery(db: Db, key: MemberKey, usedStrongFactor: boolean) {
  return db
    .select({ one: sql`1` })
    .from(organizationRoles)
    .innerJoin(organizations, eq(organizations.id, organizationRoles.organizationId))
    .where(
      and(
        isAdminOf(key),
        not(strongFactorMissing(key.userId)),
        usedStrongFactor ? undefined : eq(organizations.requireTwoFactor, false),
      ),
    );
}

/**
 * What the organisation's "Admin sign-in" section shows and its setting needs, in one statement
 * (a row only when `adminId` is its admin): whether it asks for a strong factor, whether the
 * admin holds one, and how many of its admins hold none (read through the admins' role rows, a
 * handful per organisation).
 */
export function adminSignInQuery(db: Db, { adminId, organizationId }: { adminId: string; organizationId: string }) {
  return db
    .select({
      organizationName: organizations.name,
      requireTwoFactor: organizations.requireTwoFactor,
      membershipCredentials: organizations.membershipCredentials,
      adminHoldsStrongFactor: holdsStrongFactor(adminId).mapWith(Boolean),
      adminsWithoutStrongFactor: sql<number>`(select count(*) from ${organizationRoles} where ${adminsOf(organizationId)} and not ${holdsStrongFactor(organizationRoles.userId)})`,
    })
    .from(organizations)
    .where(
      and(
        eq(organizations.id, organizationId),
        exists(
          db
            .select({ one: sql`1` })
            .from(organizationRoles)
            .where(isAdminOf({ userId: adminId, organizationId })),
        ),
      ),
    )
    .limit(1);
}

/** The person's membership of the organisation, with what giving and billing need to know. */
export async function findMembership(db: Db, key: MemberKey) {
  const [row] = await membershipQuery(db, key);
  return row ?? null;
}

/** The same read as a statement, for callers that batch it with others. */
export function membershipQuery(db: Db, key: MemberKey) {
  return db
    .select({
      id: organizationMembers.id,
      status: organizationMembers.status,
      subscriptionStatus: organizationMembers.subscriptionStatus,
    })
    .from(organizationMembers)
    .where(memberOf(key))
    .limit(1);
}

/**
 * Holds while `giverId` may give `userId` an achievement of `organizationId`: the giver
 * administers the organisation and the recipient is its approved member, subscribed or, when a
 * free limit is set, below it in live achievements from the organisation; and the giver holds
 * the strong factor the organisation may ask of its admins (decision 062). The giving INSERT
 * carries it (decision 038), so the checks and the write are one statement in one transaction;
 * the reads that tell a refused giver why are adminRoleQuery, membershipQuery and
 * countAchievementsFromQuery, the same conditions one by one.
 */
export function mayGive(
  db: Db,
  {
    giverId,
    usedStrongFactor,
    userId,
    organizationId,
  }: {
    giverId: string;
    /** The giver's session used a strong factor (decision 089). */
    usedStrongFactor: boolean;
  } & MemberKey,
  freeLimit: number | undefined,
) {
  const recipient = { userId, organizationId };
  const withinLimit = freeLimit
    ? or(
        eq(organizationMembers.subscriptionStatus, "active"),
        sql`${countAchievementsFromQuery(db, recipient)} < ${freeLimit}`,
      )
    : undefined;
  const approvedRecipient = db
    .select({ one: sql`1` })
    .from(organizationMembers)
    .where(and(memberOf(recipient), eq(organizationMembers.status, "approved"), withinLimit));
  return and(
    exists(actingAdminQuery(db, { userId: giverId, organizationId }, usedStrongFactor)),
    exists(approvedRecipient),
  )!;
}

/**
 * What an action on one membership needs, in one statement: the row (found by id, or by person
 * and organisation) with its subscription, the member's and organisation's names, `actorId`'s
 * admin role in that organisation (as `findAdminRole` reads it), whether the member is an admin,
 * and how many admins it has (the last one stays).
 */
export async function loadMembershipTarget(
  db: Db,
  target: { membershipId: string } | MemberKey,
  { actorId }: { actorId: string },
) {
  const role = (userId: SQL | string) =>
    sql<number>`exists (select 1 from ${organizationRoles} where ${organizationRoles.userId} = ${userId} and ${organizationRoles.organizationId} = ${organizationMembers.organizationId} and ${organizationRoles.role} = 'admin')`;
  const [row] = await db
    .select({
      id: organizationMembers.id,
      userId: organizationMembers.userId,
      organizationId: organizationMembers.organizationId,
      status: organizationMembers.status,
      subscriptionId: organizationMembers.stripeSubscriptionId,
      subscriptionStatus: organizationMembers.subscriptionStatus,
      stripeCustomerId: organizationMembers.stripeCustomerId,
      memberName: profiles.fullName,
      organizationName: organizations.name,
      actorIsAdmin: role(actorId),
      actorStrongFactorMissing: strongFactorMissing(actorId),
      strongFactorRequired: strongFactorRequired(),
      memberIsAdmin: role(sql`${organizationMembers.userId}`),
      adminCount: sql<number>`(select count(*) from ${organizationRoles} where ${organizationRoles.organizationId} = ${organizationMembers.organizationId} and ${organizationRoles.role} = 'admin')`,
    })
    .from(organizationMembers)
    .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
    .innerJoin(profiles, eq(profiles.id, organizationMembers.userId))
    .where("membershipId" in target ? eq(organizationMembers.id, target.membershipId) : memberOf(target))
    .limit(1);
  if (!row) return null;
  const { actorIsAdmin, actorStrongFactorMissing, strongFactorRequired: required, ...membership } = row;
  return {
    ...membership,
    // The actor's admin role, as `findAdminRole` reads it.
    actorRole: actorIsAdmin
      ? {
          organizationName: row.organizationName,
          strongFactorMissing: actorStrongFactorMissing,
          strongFactorRequired: required,
        }
      : null,
    memberIsAdmin: Boolean(row.memberIsAdmin),
    // Leaving or removing this member would leave the organisation without an admin.
    isLastAdmin: Boolean(row.memberIsAdmin) && row.adminCount <= 1,
  };
}

/** What a join request needs, in one round trip: the organisation's name and its admins. */
export async function loadJoinRequestTarget(db: Db, { organizationId }: { organizationId: string }) {
  const [[organization], admins] = await db.batch([
    db.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, organizationId)).limit(1),
    db.select({ userId: organizationRoles.userId }).from(organizationRoles).where(adminsOf(organizationId)),
  ]);
  return organization ? { name: organization.name, adminIds: admins.map((admin) => admin.userId) } : null;
}

/** The organisations the user administers, as a subquery (the directory leaves them out). */
export function administeredOrganizationIds(db: Db, { userId }: { userId: string }) {
  return db
    .select({ id: organizationRoles.organizationId })
    .from(organizationRoles)
    .where(and(eq(organizationRoles.userId, userId), eq(organizationRoles.role, "admin")));
}

/** Organisations this user is the only admin of (an account cannot leave them adminless). */
export async function findSoleAdminOrganizations(db: Db, { userId }: { userId: string }) {
  return db
    .select({ id: organizations.id, name: organizations.name })
    .from(organizationRoles)
    .innerJoin(organizations, eq(organizations.id, organizationRoles.organizationId))
    .where(
      and(
        eq(organizationRoles.userId, userId),
        eq(organizationRoles.role, "admin"),
        sql`(select count(*) from organization_roles other
          where other.organization_id = ${organizationRoles.organizationId} and other.role = 'admin') = 1`,
      ),
    )
    .orderBy(organizations.name)
    .limit(20);
}
