import COMMON_PASSWORDS from "virtual:common-passwords";
import { Refusal } from "./domain-errors.server.ts";
import { validationToast } from "./validation-toast.ts";

// What a new password must not be, beyond the forms' length rule (issue 30, docs/decisions/056):
// one of the 100,000 most common passwords, or anything containing the owner's e-mail name or
// a word of their name. Checked on the server wherever a password is set (sign-up, change,
// reset), since the list stays on the server; the browser's schema checks the length only.

export const GUESSABLE_PASSWORD_MESSAGE = "This password is too common. Choose another.";

/** Shorter parts of a name or an address are too common in passwords to refuse. */
const SHORTEST_PERSONAL_PART = 3;
const WORD_SEPARATOR = /[^\p{L}\p{N}]+/u;

export type PasswordOwner = { email: string; name?: string | null };

/** Whether the password, in any case, is on the list. */
export function isCommonPassword(password: string) {
  return hasLine(COMMON_PASSWORDS, password.toLowerCase());
}

/** Why the password would be easy to guess for this person (the message), or null. */
export function guessablePasswordMessage(password: string, owner: PasswordOwner) {
  const lowered = password.toLowerCase();
  if (hasLine(COMMON_PASSWORDS, lowered) || personalParts(owner).some((part) => lowered.includes(part)))
    return GUESSABLE_PASSWORD_MESSAGE;
  return null;
}

/** The refusal of a guessable password: an error on the form's `field`, told as its other rules are. */
export function guessablePasswordRefusal(password: string, owner: PasswordOwner, field: string) {
  const message = guessablePasswordMessage(password, owner);
  if (!message) return null;
  const fieldErrors = { [field]: [message] };
  return new Refusal(validationToast(fieldErrors), 400, fieldErrors);
}

/** The address's local part whole and its words, and the name's words, lower-cased, long enough to count. */
function personalParts({ email, name }: PasswordOwner) {
  const at = email.lastIndexOf("@");
  const local = (at > 0 ? email.slice(0, at) : email).toLowerCase();
  const words = [local, ...local.split(WORD_SEPARATOR), ...(name ?? "").toLowerCase().split(WORD_SEPARATOR)];
  return words.filter((word) => word.length >= SHORTEST_PERSONAL_PART);
}

/**
 * Whether `word` is one of the lines of `text` (sorted by code unit, joined by "\n"): a bisection
 * over the text itself, so the list is never split into an array or a set (nothing is built on
 * first use, and the isolate holds the one string).
 */
export function hasLine(text: string, word: string) {
  // `low` is always the start of a line, `high` the start of a line or the end of the text.
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const start = text.lastIndexOf("\n", middle - 1) + 1;
    const newline = text.indexOf("\n", start);
    const end = newline === -1 ? text.length : newline;
    const line = text.slice(start, end);
    if (line === word) return true;
    if (line < word) low = end + 1;
    else high = start;
  }
  return false;
}
