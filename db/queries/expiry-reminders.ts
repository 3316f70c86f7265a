import { and, eq, gt, isNotNull, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../client.ts";
import { achievements, credentials, organizationRoles, organizations, profiles, users } from "../schema.ts";
import { addDays } from "./credentials/given.ts";

// The daily expiry reminders (decision 071): 30 and 7 days before an entry's `valid_until`, each
// sent once. `expiry_reminded_days` records the last one sent; claiming it is what sends.

/** The reminders, furthest first: each is due once its days are left. */
export const REMINDER_DAYS = [30, 7] as const;
export type ReminderDays = (typeof REMINDER_DAYS)[number];

/** Which reminder is due with `daysLeft` days left (1 to 30): the 7-day one within a week, else the 30-day one. */
export const reminderDue = (daysLeft: number): ReminderDays => (daysLeft <= 7 ? 7 : 30);

/** The person in `profiles` gets e-mail: recognition e-mails on (the recognition e-mail's opt-out), not archived. */
const wantsRecognitionEmails = () =>
  sql<boolean>`(${profiles.recognitionEmails} = 1 and ${profiles.deletedAt} is null)`.mapWith(Boolean);

/** Holds while the entry has not had this reminder, nor a later one. */
export const notRemindedYet = (id: string, days: ReminderDays) =>
  sql`exists (select 1 from ${achievements} where ${and(
    eq(achievements.id, id),
    or(isNull(achievements.expiryRemindedDays), gt(achievements.expiryRemindedDays, days)),
  )})`;

/**
 * Up to `limit` live accepted entries with a reminder due `today`, soonest expiry first, with
 * their organisation and holder (address, name and e-mail choice). Read through the partial index
 * `achievements_expiry_idx`; an entry whose credential was revoked is not reminded of.
 */
export function dueRemindersQuery(db: Db, today: string, limit: number) {
  const withinWeek = addDays(today, 7);
  return db
    .select({
      id: achievements.id,
      userId: achievements.userId,
      organizationId: achievements.organizationId,
      organizationName: organizations.name,
      title: achievements.title,
      validUntil: achievements.validUntil,
      holderEmail: users.email,
      holderName: profiles.fullName,
      holderWantsEmail: wantsRecognitionEmails(),
    })
    .from(achievements)
    .innerJoin(organizations, eq(organizations.id, achievements.organizationId))
    .innerJoin(users, eq(users.id, achievements.userId))
    .innerJoin(profiles, eq(profiles.id, achievements.userId))
    .leftJoin(credentials, eq(credentials.achievementId, achievements.id))
    .where(
      and(
        isNotNull(achievements.validUntil),
        eq(achievements.status, "accepted"),
        isNull(achievements.renewedBy),
        gt(achievements.validUntil, today),
        lte(achievements.validUntil, addDays(today, 30)),
        or(
          isNull(achievements.expiryRemindedDays),
          and(gt(achievements.expiryRemindedDays, 7), lte(achievements.validUntil, withinWeek)),
        ),
        isNull(credentials.revokedAt),
      ),
    )
    .orderBy(achievements.validUntil, achievements.id)
    .limit(limit);
}

/** Records the reminder sent (a row back only when this run is the one that claimed it). */
export function claimReminder(db: Db, id: string, days: ReminderDays, when: SQL) {
  return db
    .update(achievements)
    .set({ expiryRemindedDays: days })
    .where(and(eq(achievements.id, id), when))
    .returning({ id: achievements.id });
}

/** An organisation's admins as a reminder reaches them: id, address, name and e-mail choice. */
export function reminderAdminsQuery(db: Db, organizationId: string) {
  return db
    .select({
      userId: organizationRoles.userId,
      email: users.email,
      name: profiles.fullName,
      wantsEmail: wantsRecognitionEmails(),
    })
    .from(organizationRoles)
    .innerJoin(users, eq(users.id, organizationRoles.userId))
    .innerJoin(profiles, eq(profiles.id, organizationRoles.userId))
    .where(and(eq(organizationRoles.organizationId, organizationId), eq(organizationRoles.role, "admin")))
    .limit(100);
}
