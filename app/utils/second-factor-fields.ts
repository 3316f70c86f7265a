import { z } from "zod";
import { recoveryCodeFrom } from "./recovery-code.ts";

// The code fields of a second step (signing in, confirming a session): read the same way on
// every form that asks for one.

const SIX_DIGITS = "Enter the 6-digit code from your authenticator app";
const RECOVERY = "Enter one of your recovery codes";

/** Six digits from the authenticator app, spaces allowed. */
export const authenticatorCodeField = z
  .string({ error: SIX_DIGITS })
  .transform((value) => value.replace(/\s/g, ""))
  .pipe(z.string().regex(/^\d{6}$/, SIX_DIGITS));

/** One of the recovery codes, however it was typed. */
export const recoveryCodeField = z
  .string({ error: RECOVERY })
  .transform(recoveryCodeFrom)
  .pipe(z.string().length(29, RECOVERY));
