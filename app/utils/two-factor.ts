// Two-factor sign-in as Settings shows it (docs/decisions/060): plain types, for the server that
// builds them and the page that renders them.

import type { QrCode } from "./qr-code.ts";

/** On or off, and a setup waiting for its first code: its otpauth URI as a QR code, and its key as text. */
export type TwoFactorState = {
  enabled: boolean;
  setup: { uri: string; key: string; qr: QrCode } | null;
};

/** What Settings shows once, after two-factor is turned on or the recovery codes are replaced. */
export type RecoveryCodesReply = {
  formId: "recovery-codes";
  recoveryCodes: string[];
  toast: { title: string; description: string };
};
