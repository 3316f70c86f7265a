import { z } from "zod";

// Field rules shared by every form, with the spec's messages.
export const emailField = z
  .string({ error: "Invalid email address" })
  .trim()
  .max(255, "Email must be less than 255 characters")
  .pipe(z.email("Invalid email address"));

export const passwordField = z
  .string({ error: "Password must be at least 6 characters" })
  .min(6, "Password must be at least 6 characters")
  .max(128, "Password must be less than 128 characters");

export const nameField = z
  .string({ error: "Name is required" })
  .trim()
  .min(1, "Name is required")
  .max(100, "Name must be less than 100 characters");

export const organizationNameField = z
  .string({ error: "Please enter an organisation name" })
  .trim()
  .min(1, "Please enter an organisation name")
  .max(100, "Organisation name must be less than 100 characters");

/** An optional text: blank becomes null. */
export const optionalText = (max: number, message: string) =>
  z
    .string()
    .trim()
    .max(max, message)
    .optional()
    .transform((value) => (value ? value : null));

export const descriptionField = optionalText(1000, "Description must be less than 1000 characters");

/** The first message of a failed validation: what the 'Validation error' toast shows. */
export function firstError(error: Record<string, string[] | null> | null | undefined) {
  if (!error) return null;
  for (const messages of Object.values(error)) if (messages?.[0]) return messages[0];
  return null;
}

/**
 * The toast for a failed validation: most messages go under 'Validation error'; a few have
 * their own title and text in the spec.
 */
const SPECIAL_TOASTS: Record<string, { title: string; description: string }> = {
  "Passwords don't match": { title: "Passwords don't match", description: "Please make sure your new passwords match." },
  "Please enter an organisation name": { title: "Name required", description: "Please enter an organisation name" },
};

export function validationToast(error: Record<string, string[] | null> | null | undefined) {
  const message = firstError(error) ?? "Please check the form";
  return { ...(SPECIAL_TOASTS[message] ?? { title: "Validation error", description: message }), variant: "destructive" as const };
}

/**
 * The idempotency key a form was rendered with (decision 012): the same key twice is the same
 * submission. Optional, so a form posted without one still works (it is just not deduplicated).
 */
export const submissionKeyField = z.uuid({ error: "This form has expired. Please reload the page and try again." }).optional();
