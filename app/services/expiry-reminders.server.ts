import type { BatchItem } from "drizzle-orm/batch";
import {
  claimReminder,
  dueRemindersQuery,
  notRemindedYet,
  reminderAdminsQuery,
  reminderDue,
} from "#db/queries/expiry-reminders.ts";
import { notificationInsert } from "#db/queries/notifications.ts";
import { formatLongDate } from "#app/utils/dates.ts";
import { createMailer, expiryReminderEmail, type MailMessage } from "#app/utils/email.server.ts";
import { daysLeftText, todayUtc } from "#app/utils/expiry.ts";
import { log } from "#app/utils/log.server.ts";
import type { ServiceContext } from "./context.server.ts";
import { announce } from "./notifications.server.ts";

/**
 * Entries reminded of per daily run (each: one batch, and a few e-mails): more due than this are
 * reminded of the next day, soonest expiry first, so a 7-day reminder is never starved.
 */
export const EXPIRY_REMINDERS_PER_RUN = 200;

const DAY_MS = 86_400_000;

/**
 * The daily cron's expiry reminders (decision 071): 30 and 7 days before an entry expires, its
 * holder and its organisation's admins get a notification and, with recognition e-mails on, an
 * e-mail. Each entry's reminder is claimed in the batch that writes its notifications, so a
 * rerun (or a concurrent run) sends nothing twice; a mail that fails is logged, not retried.
 */
export async function sendExpiryReminders(context: ServiceContext, now: Date, cap = EXPIRY_REMINDERS_PER_RUN) {
  const { db } = context;
  const today = todayUtc(now);
  const due = await dueRemindersQuery(db, today, cap);
  const origin = context.env.APP_URL ? new URL(context.env.APP_URL).origin : "";
  const admins = new Map<string, Awaited<ReturnType<typeof reminderAdminsQuery>>>();
  const mails: { userId: string; message: MailMessage }[] = [];
  let reminded = 0;
  for (const entry of due) {
    const validUntil = entry.validUntil!;
    const organizationId = entry.organizationId!;
    const daysLeft = Math.round((Date.parse(`${validUntil}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / DAY_MS);
    const days = reminderDue(daysLeft);
    if (!admins.has(organizationId)) admins.set(organizationId, await reminderAdminsQuery(db, organizationId));
    // The holder who is also an admin hears it once, as the holder.
    const orgAdmins = admins.get(organizationId)!.filter((admin) => admin.userId !== entry.userId);
    const until = formatLongDate(validUntil);
    const when = notRemindedYet(entry.id, days);
    const statements: BatchItem<"sqlite">[] = [
      notificationInsert(
        db,
        {
          userId: entry.userId,
          title: "Achievement expiring",
          message: `"${entry.title}" from ${entry.organizationName} is valid until ${until}: ${daysLeftText(daysLeft)}. Ask ${entry.organizationName} to renew it.`,
          type: "warning",
        },
        when,
      ),
      ...orgAdmins.map((admin) =>
        notificationInsert(
          db,
          {
            userId: admin.userId,
            title: "Achievement expiring",
            message: `"${entry.title}", given to ${entry.holderName}, is valid until ${until}: ${daysLeftText(daysLeft)}. Renew it from Given achievements.`,
            type: "warning",
          },
          when,
        ),
      ),
      // Last: the notifications above see the reminder not yet claimed.
      claimReminder(db, entry.id, days, when),
    ];
    const results = await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
    if ((results.at(-1) as unknown[]).length === 0) continue;
    reminded += 1;
    announce(context, results.slice(0, -1).flat() as Parameters<typeof announce>[1]);
    const mail = { title: entry.title, organizationName: entry.organizationName, validUntil, daysLeft };
    const settingsUrl = `${origin}/settings`;
    if (entry.holderWantsEmail)
      mails.push({
        userId: entry.userId,
        message: expiryReminderEmail({
          ...mail,
          email: entry.holderEmail,
          name: entry.holderName,
          holderName: null,
          url: `${origin}/passport`,
          settingsUrl,
        }),
      });
    for (const admin of orgAdmins)
      if (admin.wantsEmail)
        mails.push({
          userId: admin.userId,
          message: expiryReminderEmail({
            ...mail,
            email: admin.email,
            name: admin.name,
            holderName: entry.holderName,
            url: `${origin}/dashboard/achievements?filter=expiring`,
            settingsUrl,
          }),
        });
  }
  const mailer = createMailer(context.env, db);
  let failedMails = 0;
  for (const { userId, message } of mails) {
    try {
      await mailer.send(message);
    } catch (error) {
      failedMails += 1;
      log("error", "expiry reminder email failed", { userId, error: String(error) });
    }
  }
  return { reminded, emails: mails.length - failedMails, failedMails, more: due.length === cap };
}
