import type { Constraint } from "@conform-to/dom";
import type { z } from "zod";
import { ACHIEVEMENT_TYPES } from "#db/enums.ts";
import type * as achievementSchemas from "./achievement-schemas.ts";
import type * as formSchemas from "./form-schemas.ts";

/**
 * A form's schema as a page holds it (docs/decisions/039): the constraints its fields render
 * with, known at once, and the zod schema itself, loaded when someone first uses the form. zod
 * and Conform's zod adapter (about 35 kB gzip) are then not part of any page's first load; the
 * server validates with the same schemas, imported directly, whatever the browser did.
 *
 * `constraint` is what `getZodConstraint(schema)` gives (the server and the browser must render
 * the same attributes before zod is in the browser): tests/workers/form-validators.test.ts holds
 * every validator here to its schema.
 */
export type FormValidator<Schema extends z.ZodType> = {
  constraint: { [Field in keyof z.input<Schema> & string]-?: Constraint };
  schema: () => Promise<Schema>;
};

function validator<Schema extends z.ZodType>(
  constraint: NoInfer<FormValidator<Schema>["constraint"]>,
  schema: () => Promise<Schema>,
): FormValidator<Schema> {
  return { constraint, schema };
}

const REQUIRED: Constraint = { required: true };
const OPTIONAL: Constraint = { required: false };
const forms = () => import("./form-schemas.ts");
const achievements = () => import("./achievement-schemas.ts");

// ---- Sign-in and sign-up ----

type FormSchemas = typeof formSchemas;
export const signInValidator = validator<FormSchemas["signInSchema"]>(
  { intent: REQUIRED, email: REQUIRED, password: REQUIRED, remember: OPTIONAL, redirectTo: OPTIONAL },
  () => forms().then((module) => module.signInSchema),
);
export const signUpValidator = validator<FormSchemas["signUpSchema"]>(
  { intent: REQUIRED, name: REQUIRED, email: REQUIRED, password: REQUIRED, redirectTo: OPTIONAL },
  () => forms().then((module) => module.signUpSchema),
);
export const orgSignUpValidator = validator<FormSchemas["orgSignUpSchema"]>(
  {
    ...signUpValidator.constraint,
    intent: REQUIRED,
    organizationName: REQUIRED,
    organizationDescription: OPTIONAL,
  },
  () => forms().then((module) => module.orgSignUpSchema),
);
export const resendValidator = validator<FormSchemas["resendSchema"]>({ intent: REQUIRED, email: REQUIRED }, () =>
  forms().then((module) => module.resendSchema),
);

// ---- Forgot password ----

export const forgotPasswordValidator = validator<FormSchemas["forgotPasswordSchema"]>(
  { intent: REQUIRED, email: REQUIRED },
  () => forms().then((module) => module.forgotPasswordSchema),
);
export const resetPasswordValidator = validator<FormSchemas["resetPasswordSchema"]>(
  { intent: REQUIRED, token: REQUIRED, newPassword: REQUIRED, confirmPassword: REQUIRED },
  () => forms().then((module) => module.resetPasswordSchema),
);

// ---- Settings ----

export const profileValidator = validator<FormSchemas["profileSchema"]>(
  { intent: REQUIRED, fullName: REQUIRED, bio: OPTIONAL, isPublic: OPTIONAL },
  () => forms().then((module) => module.profileSchema),
);
export const preferencesValidator = validator<FormSchemas["preferencesSchema"]>(
  { intent: REQUIRED, searchIndexing: OPTIONAL, recognitionEmails: OPTIONAL },
  () => forms().then((module) => module.preferencesSchema),
);
export const passwordValidator = validator<FormSchemas["passwordSchema"]>(
  { intent: REQUIRED, currentPassword: REQUIRED, newPassword: REQUIRED, confirmPassword: REQUIRED },
  () => forms().then((module) => module.passwordSchema),
);
export const feedbackValidator = validator<FormSchemas["feedbackSchema"]>(
  { intent: REQUIRED, message: REQUIRED, rating: OPTIONAL, submissionKey: OPTIONAL },
  () => forms().then((module) => module.feedbackSchema),
);

// ---- Own passport and dashboard ----

export const bioValidator = validator<FormSchemas["bioSchema"]>({ intent: REQUIRED, bio: OPTIONAL }, () =>
  forms().then((module) => module.bioSchema),
);
export const endorseValidator = validator<FormSchemas["endorseSchema"]>(
  { intent: REQUIRED, as: REQUIRED, comment: REQUIRED },
  () => forms().then((module) => module.endorseSchema),
);
export const createOrganizationValidator = validator<FormSchemas["createOrganizationSchema"]>(
  { intent: REQUIRED, name: REQUIRED, description: OPTIONAL, submissionKey: OPTIONAL },
  () => forms().then((module) => module.createOrganizationSchema),
);

export const importCheckValidator = validator<FormSchemas["importCheckSchema"]>(
  { intent: REQUIRED, source: OPTIONAL },
  () => forms().then((module) => module.importCheckSchema),
);

// ---- Achievements ----

type AchievementSchemas = typeof achievementSchemas;
const achievementConstraint = {
  intent: REQUIRED,
  title: REQUIRED,
  description: OPTIONAL,
  date: REQUIRED,
  timeZone: OPTIONAL,
  type: { required: true, pattern: ACHIEVEMENT_TYPES.join("|") },
  media: OPTIONAL,
  cover: OPTIONAL,
  mediaUrl: OPTIONAL,
  submissionKey: OPTIONAL,
};
export const giveAchievementValidator = validator<AchievementSchemas["giveAchievementSchema"]>(
  { ...achievementConstraint, userId: REQUIRED, validUntil: OPTIONAL },
  () => achievements().then((module) => module.giveAchievementSchema),
);
export const selfAchievementValidator = validator<AchievementSchemas["selfAchievementSchema"]>(
  { ...achievementConstraint, company: REQUIRED },
  () => achievements().then((module) => module.selfAchievementSchema),
);
