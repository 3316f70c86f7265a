import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "./client.ts";
import { DEMO_ACHIEVEMENTS, DEMO_ORGANISATION, DEMO_PROFILE } from "./demo-data.ts";
import { hashPassword } from "./password.server.ts";
import { organizationNameKey } from "./queries/organizations.ts";
import {
  accounts,
  achievements,
  devDnsRecords,
  organizationDomains,
  organizationMembers,
  organizationRoles,
  organizations,
  profiles,
  users,
  type UserType,
} from "./schema.ts";

// The local demo world. Fixed ids make the seed idempotent: running it again inserts nothing.
export const DEMO_PASSWORD = "passport-demo";

export const DEMO_USERS = {
  admin: {
    id: "5eed0000-0000-4000-8000-000000000001",
    email: "admin@example.com",
    name: "Priya Shah",
    userType: "organization",
  },
  alex: {
    id: "5eed0000-0000-4000-8000-000000000002",
    email: "alex@example.com",
    name: DEMO_PROFILE.fullName,
    userType: "individual",
  },
  sam: {
    id: "5eed0000-0000-4000-8000-000000000003",
    email: "sam@example.com",
    name: "Sam Okafor",
    userType: "individual",
  },
  jordan: {
    id: "5eed0000-0000-4000-8000-000000000004",
    email: "jordan@example.com",
    name: "Jordan Lee",
    userType: "individual",
  },
} as const satisfies Record<string, { id: string; email: string; name: string; userType: UserType }>;

export const DEMO_ORGANISATION_ID = "5eed0000-0000-4000-8000-000000000100";

/**
 * The demo organisation's domain claim, verified: its token, and the TXT record that proves it in
 * the DNS stand-in (/dev/dns.json), where the daily re-check finds it again in development.
 * The names and format are app/services/organization-domains.server.ts's (recordNameOf,
 * recordValueOf), spelled out here because db/ imports nothing from app/.
 */
export const DEMO_DOMAIN_TOKEN = "demo-northwind-health-0123456789";
export const DEMO_DOMAIN_RECORD = {
  name: `_career-passport.${DEMO_ORGANISATION.domain}`,
  type: "TXT",
  data: `career-passport-verification=${DEMO_DOMAIN_TOKEN}`,
};

/** Achievements the demo organisation gave Sam, by how many days before the seed ran. */
export const DEMO_RECOGNITION_HISTORY: { title: string; type: "award" | "training" | "milestone"; daysAgo: number }[] =
  [
    { title: "Weekend Rota Hero", type: "award", daysAgo: 10 },
    { title: "Manual Handling Refresher", type: "training", daysAgo: 24 },
    { title: "First Solo Night Shift", type: "milestone", daysAgo: 45 },
    { title: "Patient Feedback Star", type: "award", daysAgo: 75 },
    { title: "Safeguarding Level 2", type: "training", daysAgo: 130 },
  ];
const seedId = (n: number) => `5eed0000-0000-4000-8000-${String(n).padStart(12, "0")}`;

type Statement = BatchItem<"sqlite">;

/** Statements that create a confirmed account with a password and a profile, if absent. */
export function userStatements(
  db: Db,
  user: { id: string; email: string; name: string; userType: UserType },
  passwordHash: string,
): Statement[] {
  return [
    db
      .insert(users)
      .values({ id: user.id, email: user.email, name: user.name, emailVerified: true })
      .onConflictDoNothing(),
    db
      .insert(accounts)
      .values({ id: user.id, accountId: user.id, providerId: "credential", userId: user.id, password: passwordHash })
      .onConflictDoNothing(),
    db.insert(profiles).values({ id: user.id, fullName: user.name, userType: user.userType }).onConflictDoNothing(),
  ];
}

export async function seed(db: Db) {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const { admin, alex, sam, jordan } = DEMO_USERS;
  const now = Date.now();
  const daysAgo = (days: number) => new Date(now - days * 24 * 60 * 60 * 1000);
  const { domain, ...organisation } = DEMO_ORGANISATION;

  const statements: Statement[] = [
    ...Object.values(DEMO_USERS).flatMap((user) => userStatements(db, user, passwordHash)),
    db
      .insert(organizations)
      .values({ id: DEMO_ORGANISATION_ID, ...organisation, nameKey: organizationNameKey(organisation.name) })
      .onConflictDoNothing(),
    // Verified as verifyDomain leaves a domain whose record it found: checked now, due again in a day.
    db
      .insert(organizationDomains)
      .values({
        id: seedId(601),
        organizationId: DEMO_ORGANISATION_ID,
        domain,
        token: DEMO_DOMAIN_TOKEN,
        status: "verified",
        nameKey: organizationNameKey(organisation.name),
        verifiedAt: daysAgo(390),
        lastCheckedAt: new Date(now),
        nextCheckAt: daysAgo(-1),
      })
      .onConflictDoNothing(),
    db
      .insert(devDnsRecords)
      .values({ id: seedId(602), ...DEMO_DOMAIN_RECORD })
      .onConflictDoNothing(),
    // Raw inserts into the membership tables, outside db/queries/memberships/ on purpose: this is
    // demo data with fixed ids and dates (product code writes memberships only through that folder).
    db
      .insert(organizationRoles)
      .values([
        { id: seedId(201), userId: admin.id, organizationId: DEMO_ORGANISATION_ID, role: "admin" },
        { id: seedId(202), userId: alex.id, organizationId: DEMO_ORGANISATION_ID, role: "member" },
        { id: seedId(203), userId: sam.id, organizationId: DEMO_ORGANISATION_ID, role: "member" },
      ])
      .onConflictDoNothing(),
    db
      .insert(organizationMembers)
      .values([
        member(301, admin.id, "approved", daysAgo(400)),
        member(302, alex.id, "approved", daysAgo(380)),
        member(303, sam.id, "approved", daysAgo(200)),
        member(304, jordan.id, "pending", daysAgo(2)),
      ])
      .onConflictDoNothing(),
    // One statement per row: a D1 statement binds at most D1_MAX_BOUND_PARAMETERS.
    ...DEMO_ACHIEVEMENTS.map((item, index) =>
      db
        .insert(achievements)
        .values({
          id: seedId(400 + index),
          userId: alex.id,
          organizationId: item.fromOrganisation ? DEMO_ORGANISATION_ID : null,
          createdBy: item.fromOrganisation ? admin.id : alex.id,
          title: item.fromOrganisation ? item.title : `${item.title} - ${item.company}`,
          description: item.description,
          date: item.date,
          type: item.type,
          imageUrl: item.imageUrl ?? null,
          status: "accepted",
          createdAt: new Date(`${item.date}T09:00:00Z`),
        })
        .onConflictDoNothing(),
    ),
    db
      .insert(achievements)
      .values({
        id: seedId(499),
        userId: sam.id,
        organizationId: DEMO_ORGANISATION_ID,
        createdBy: admin.id,
        title: "Rookie of the Quarter",
        description: "Settled into the team fast and took on the weekend rota.",
        date: daysAgo(3).toISOString().slice(0, 10),
        type: "award",
        status: "pending",
      })
      .onConflictDoNothing(),
    // A recognition history for the analytics panel, dated back from today so that every range
    // (7, 30, 90, 365 days) and the 6-month trend show something different.
    ...DEMO_RECOGNITION_HISTORY.map((item, index) =>
      db
        .insert(achievements)
        .values({
          id: seedId(500 + index),
          userId: sam.id,
          organizationId: DEMO_ORGANISATION_ID,
          createdBy: admin.id,
          title: item.title,
          description: null,
          date: daysAgo(item.daysAgo).toISOString().slice(0, 10),
          type: item.type,
          status: "accepted",
          createdAt: daysAgo(item.daysAgo),
        })
        .onConflictDoNothing(),
    ),
  ];
  await db.batch(statements as [Statement, ...Statement[]]);

  function member(n: number, userId: string, status: "pending" | "approved", requestedAt: Date) {
    return {
      id: seedId(n),
      userId,
      organizationId: DEMO_ORGANISATION_ID,
      status,
      requestedAt,
      approvedAt: status === "approved" ? requestedAt : null,
    };
  }
}
