import { z } from "zod";
import { ACHIEVEMENT_TYPES } from "#db/enums.ts";
import { IMAGE_MIME_TYPES, MEDIA_LIMITS, MEDIA_MESSAGES, VIDEO_MIME_TYPES } from "./media-limits.ts";
import { httpsUrlField, optionalText, requiredText, submissionKeyField } from "./validation.ts";

// The achievement forms' rules and messages (spec section 5), shared by browser and server.

/** The latest calendar date anywhere on Earth right now (UTC+14): no one's "today" is later. */
export function latestTodayAnywhere(now = Date.now()) {
  return new Date(now + 14 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

/**
 * Today in the person's own time zone (the browser sends it with the form), as YYYY-MM-DD. A form
 * sent without JavaScript has no zone: then the latest date anywhere (docs/decisions/018).
 */
export function todayIn(timeZone: string | undefined, now = Date.now()) {
  if (!timeZone) return latestTodayAnywhere(now);
  try {
    // en-CA writes dates as YYYY-MM-DD.
    return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(
      now,
    );
  } catch {
    return latestTodayAnywhere(now);
  }
}

const FUTURE_DATE = "Date cannot be in the future";

/** The date may not be later than today where the person is. */
function notInTheFuture(value: { date: string; timeZone?: string }, context: z.RefinementCtx) {
  if (value.date > todayIn(value.timeZone)) context.addIssue({ code: "custom", path: ["date"], message: FUTURE_DATE });
}

const achievementFields = {
  title: requiredText({
    label: "Title",
    required: "Title is required",
    max: 200,
    tooLong: "Title must be less than 200 characters",
  }),
  description: optionalText(1000, "Description must be less than 1000 characters"),
  date: z
    .string({ error: "Date is required" })
    .regex(/^\d{4}-\d{2}-\d{2}$/, "Date is required")
    .refine((date) => !Number.isNaN(Date.parse(date)), "Date is required")
    // Never later than anyone's today; the person's own today is checked with their zone below.
    .refine((date) => date <= latestTodayAnywhere(), FUTURE_DATE),
  /** The browser's IANA time zone (e.g. "Europe/London"), set by script; absent without it. */
  timeZone: z.string().max(64).optional(),
  type: z.enum(ACHIEVEMENT_TYPES, { error: "Please select a type" }),
  // Files are checked here in the browser; the server checks the bytes while they stream in.
  media: z
    .file()
    .optional()
    .superRefine((file, context) => {
      if (!file) return;
      const limit = IMAGE_MIME_TYPES.includes(file.type)
        ? MEDIA_LIMITS.image
        : VIDEO_MIME_TYPES.includes(file.type)
          ? MEDIA_LIMITS.achievementVideo
          : null;
      if (!limit) context.addIssue({ code: "custom", message: MEDIA_MESSAGES.invalidMedia });
      else if (file.size > limit.maxBytes) context.addIssue({ code: "custom", message: limit.tooLarge });
    }),
  cover: z
    .file()
    .max(MEDIA_LIMITS.cover.maxBytes, MEDIA_LIMITS.cover.tooLarge)
    .mime(IMAGE_MIME_TYPES, MEDIA_MESSAGES.invalidImage)
    .optional(),
  mediaUrl: httpsUrlField.optional(),
  // The idempotency key of the form render (decision 012); forms without one are not deduplicated.
  submissionKey: submissionKeyField,
};

export const VALID_UNTIL_AFTER_DATE = "Valid until must be after the achievement date";
export const VALID_UNTIL_AFTER_TODAY = "Valid until must be after today";
const VALID_UNTIL_NOT_A_DATE = "Valid until must be a date";

/** An expiry day (decision 071), YYYY-MM-DD; left empty, the achievement never expires. */
export const validUntilField = z
  .string({ error: VALID_UNTIL_NOT_A_DATE })
  .regex(/^\d{4}-\d{2}-\d{2}$/, VALID_UNTIL_NOT_A_DATE)
  .refine((date) => !Number.isNaN(Date.parse(date)), VALID_UNTIL_NOT_A_DATE);

/** 'Valid until' is a later day than the achievement's own. */
function validAfterDate(
  value: { date: string; validUntil?: string },
  context: z.RefinementCtx,
  message = VALID_UNTIL_AFTER_DATE,
) {
  if (value.validUntil && value.validUntil <= value.date)
    context.addIssue({ code: "custom", path: ["validUntil"], message });
}

export const giveAchievementSchema = z
  .object({
    intent: z.literal("give-achievement"),
    userId: z.uuid({ error: "Please select a person" }),
    ...achievementFields,
    validUntil: validUntilField.optional(),
  })
  .superRefine((value, context) => {
    notInTheFuture(value, context);
    validAfterDate(value, context);
  });

/**
 * 'Renew' on the given-achievements list (decision 071): the same achievement again, dated today
 * where the admin is, with a new expiry after today.
 */
export const renewAchievementSchema = z
  .object({
    intent: z.literal("renew"),
    achievementId: z.uuid(),
    validUntil: validUntilField,
    timeZone: achievementFields.timeZone,
    submissionKey: submissionKeyField,
  })
  .superRefine((value, context) =>
    validAfterDate({ ...value, date: todayIn(value.timeZone) }, context, VALID_UNTIL_AFTER_TODAY),
  );

const companyField = requiredText({
  label: "Company name",
  required: "Company/Organization is required",
  max: 200,
  tooLong: "Company name must be less than 200 characters",
});

export const selfAchievementSchema = z
  .object({
    intent: z.literal("add-self-achievement"),
    ...achievementFields,
    company: companyField,
  })
  .superRefine(notInTheFuture);

/**
 * One achievement of an imported history (a LinkedIn export or a JSON Resume), as the review
 * list shows it: a self achievement's text fields under the same rules and messages.
 */
export const historyItemSchema = z
  .object({
    title: achievementFields.title,
    company: companyField,
    description: achievementFields.description,
    date: achievementFields.date,
    type: achievementFields.type,
    timeZone: achievementFields.timeZone,
  })
  .superRefine(notInTheFuture);
