import { z } from "zod";
import {
  bioField,
  descriptionField,
  emailField,
  nameField,
  organizationNameField,
  passwordField,
  requiredText,
  submissionKeyField,
} from "./validation.ts";

// The schemas of the app's forms (besides the achievement forms, in achievement-schemas.ts), one
// per form, used by the browser and the server alike. Kept out of the route modules so that
// tests (tests/workers/schema-properties.test.ts) can check them without the React tree.

// ---- Sign-in and sign-up (routes/auth.tsx) ----

export const redirectToField = z.string().optional();

export const signInSchema = z.object({
  intent: z.literal("signin"),
  email: emailField,
  password: passwordField,
  remember: z.literal("on").optional(),
  redirectTo: redirectToField,
});

// Fields in the order the form shows them: the toast names the first that fails.
export const signUpSchema = z.object({
  intent: z.literal("signup"),
  name: nameField,
  email: emailField,
  password: passwordField,
  redirectTo: redirectToField,
});

export const orgSignUpSchema = signUpSchema.extend({
  intent: z.literal("org-signup"),
  organizationName: organizationNameField,
  organizationDescription: descriptionField,
});

export const resendSchema = z.object({ intent: z.literal("resend-verification"), email: emailField });

// ---- Forgot password (routes/auth_.forgot-password.tsx, routes/auth_.reset-password.tsx) ----

export const forgotPasswordSchema = z.object({ intent: z.literal("forgot-password"), email: emailField });

/** A new password follows the sign-up rule; the confirmation must match, as on Settings. */
export const resetPasswordSchema = z
  .object({
    intent: z.literal("reset-password"),
    token: z.string({ error: "This link is invalid" }).max(200),
    newPassword: passwordField,
    confirmPassword: z.string({ error: "Passwords don't match" }),
  })
  .refine((value) => value.newPassword === value.confirmPassword, {
    message: "Passwords don't match",
    path: ["confirmPassword"],
  });

// ---- Settings (routes/_app.settings/) ----

export const profileSchema = z.object({
  intent: z.literal("update-profile"),
  fullName: nameField,
  bio: bioField,
  isPublic: z.literal("on").optional(),
});

export const preferencesSchema = z.object({
  intent: z.literal("update-preferences"),
  searchIndexing: z.literal("on").optional(),
  recognitionEmails: z.literal("on").optional(),
});

export const passwordSchema = z
  .object({
    intent: z.literal("change-password"),
    currentPassword: z.string({ error: "Current password is required" }),
    newPassword: passwordField,
    confirmPassword: z.string({ error: "Passwords don't match" }),
  })
  .refine((value) => value.newPassword === value.confirmPassword, {
    message: "Passwords don't match",
    path: ["confirmPassword"],
  });

export const feedbackSchema = z.object({
  intent: z.literal("send-feedback"),
  message: requiredText({
    label: "Feedback",
    required: "Feedback is required",
    max: 2000,
    tooLong: "Feedback must be less than 2000 characters",
    multiline: true,
  }),
  rating: z.coerce.number().int().min(1, "Rating must be 1 to 5").max(5, "Rating must be 1 to 5").optional(),
  submissionKey: submissionKeyField,
});

// ---- Own passport (routes/_app.passport._index/) ----

export const bioSchema = z.object({
  intent: z.literal("update-bio"),
  bio: bioField,
});

// ---- Endorse someone's achievement (routes/_app.passport.$userId.endorse.$achievementId.tsx, decision 072) ----

export const ENDORSEMENT_MAX_LENGTH = 500;
/** The endorse form's `as` for oneself; any other value is an organisation's id. */
export const AS_MYSELF = "person";
export const endorseSchema = z.object({
  intent: z.literal("endorse"),
  // "person" (oneself) or the id of an organisation one administers; the server checks which.
  as: z.string({ error: "Choose who endorses" }).min(1, "Choose who endorses").max(64),
  comment: requiredText({
    label: "Endorsement",
    required: "Write a few words about this achievement",
    max: ENDORSEMENT_MAX_LENGTH,
    tooLong: `Endorsement must be at most ${ENDORSEMENT_MAX_LENGTH} characters`,
    multiline: true,
  }),
});

// ---- Import a badge or credential (routes/_app.passport.import/) ----

/** As large as an imported file may be (read-input.server.ts has the same cap). */
export const IMPORT_MAX_CHARACTERS = 5 * 1024 * 1024;

/** The check: a pasted JSON, JWT or address; a chosen file comes beside it, read by the intent. */
export const importCheckSchema = z.object({
  intent: z.literal("check-import"),
  source: z
    .string()
    .trim()
    .max(IMPORT_MAX_CHARACTERS, "The file is larger than 5 MB; a badge or credential is far smaller.")
    .optional(),
});

// ---- Dashboard (routes/_app.dashboard/, components/dashboard/create-organization.tsx) ----

export const searchSchema = z.object({
  q: requiredText({
    label: "Search term",
    required: "Search term cannot be empty",
    max: 100,
    tooLong: "Search term must be less than 100 characters",
  }),
});

/** The form's one schema: the dashboard's action validates with it, the browser too. */
export const createOrganizationSchema = z.object({
  intent: z.literal("create-organization"),
  name: organizationNameField,
  description: descriptionField,
  submissionKey: submissionKeyField,
});
