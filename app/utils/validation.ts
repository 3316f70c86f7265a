// First: zod's configuration, before any schema is defined (this module is where they start).
import "./zod-config.ts";
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

// ---- Plain text: what every stored and shown-again text field accepts (decision 011) ----

/** C0 and C1 control characters (NUL included) and DEL; multi-line fields keep tab, LF and CR. */
/* eslint-disable no-control-regex -- matching control characters is the point */
const SINGLE_LINE_CONTROL = /[\u0000-\u001F\u007F-\u009F]/;
const MULTI_LINE_CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/* eslint-enable no-control-regex */
/**
 * Bidirectional embeddings, overrides and isolates (LRE RLE PDF LRO RLO, LRI RLI FSI PDI): they
 * reorder the text shown after them ("Trojan Source" spoofing). Marks (LRM, RLM, ALM) and every
 * right-to-left script stay allowed.
 */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;
/**
 * Zero-width characters (space, non-joiner, joiner, word joiner, BOM): allowed in typed text, where
 * scripts need the joiners, but refused in names imported from a file (issue 43), which no one typed
 * and which a copycat would use to pass for another name.
 */
const ZERO_WIDTH = /[\u200B-\u200D\u2060\uFEFF]/;
/** Nothing a reader can see: whitespace, format characters (zero-width, BOM) and blank fillers. */
const INVISIBLE_ONLY = /^[\s\p{Cf}\u115F\u1160\u3164\uFFA0\u2800]*$/u;

/** True when the text shows at least one character (what "required" means for a text field). */
export const hasVisibleText = (value: string) => !INVISIBLE_ONLY.test(value);

/** The message for a character that the field refuses, or null. */
export function forbiddenCharacterMessage(value: string, label: string, { multiline = false, zeroWidth = false } = {}) {
  if ((multiline ? MULTI_LINE_CONTROL : SINGLE_LINE_CONTROL).test(value))
    return `${label} cannot contain control characters`;
  if (BIDI_CONTROL.test(value)) return `${label} cannot contain text direction override characters`;
  if (zeroWidth && ZERO_WIDTH.test(value)) return `${label} cannot contain zero-width characters`;
  return null;
}

const plainTextCheck = (label: string, multiline: boolean) => (value: string, context: z.RefinementCtx<string>) => {
  const message = forbiddenCharacterMessage(value, label, { multiline });
  if (message) context.addIssue({ code: "custom", message, input: value });
};

/**
 * A required text: trimmed, at least one visible character, at most `max` UTF-16 code units (as
 * the browser's maxlength counts), no control or bidi override characters.
 */
export const requiredText = ({
  label,
  required,
  max,
  tooLong,
  multiline = false,
}: {
  label: string;
  required: string;
  max: number;
  tooLong: string;
  multiline?: boolean;
}) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(max, tooLong)
    .refine((value) => value.length === 0 || hasVisibleText(value), required)
    .superRefine(plainTextCheck(label, multiline));

export const nameField = requiredText({
  label: "Name",
  required: "Name is required",
  max: 100,
  tooLong: "Name must be less than 100 characters",
});

export const organizationNameField = requiredText({
  label: "Organisation name",
  required: "Please enter an organisation name",
  max: 100,
  tooLong: "Organisation name must be less than 100 characters",
});

/** An optional multi-line text: blank (nothing visible) becomes null. */
export const optionalText = (max: number, message: string, label = message.split(" must ")[0]!) =>
  z
    .string()
    .trim()
    .max(max, message)
    .superRefine(plainTextCheck(label, true))
    .optional()
    .transform((value) => (value && hasVisibleText(value) ? value : null));

export const descriptionField = optionalText(1000, "Description must be less than 1000 characters");
export const bioField = optionalText(1000, "Bio must be less than 1000 characters");

/**
 * A link to an image or video elsewhere: an absolute https:// URL with a host, stored in its
 * normalised form (so `https:evil` or `https:/path`, which browsers resolve against our own
 * origin, and javascript:, data:, http: and protocol-relative links are all refused).
 */
export const MEDIA_URL_MESSAGE = "Image or video URL must be an https:// link";
export const httpsUrlField = z
  .string({ error: MEDIA_URL_MESSAGE })
  .trim()
  .max(2000, "Image or video URL must be less than 2000 characters")
  .superRefine((value, context) => {
    if (SINGLE_LINE_CONTROL.test(value) || BIDI_CONTROL.test(value) || !isAbsoluteHttpsUrl(value)) {
      context.addIssue({ code: "custom", message: MEDIA_URL_MESSAGE, input: value });
    }
  })
  .transform((value) => new URL(value).href);

function isAbsoluteHttpsUrl(value: string) {
  if (!/^https:\/\/[^/\\]/i.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === "https:" && url.hostname.length > 0 && !url.username && !url.password;
  } catch {
    return false;
  }
}

/**
 * The idempotency key a form was rendered with (decision 012): the same key twice is the same
 * submission. Optional, so a form posted without one still works (it is just not deduplicated).
 */
export const submissionKeyField = z
  .uuid({ error: "This form has expired. Please reload the page and try again." })
  .optional();
