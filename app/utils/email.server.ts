import type { Db } from "#db/client.ts";
import { insertDevMail } from "#db/queries/dev-mail.ts";
import { PRODUCT_NAME } from "./constants.ts";
import { formatLongDate } from "./dates.ts";
import { daysLeftText } from "./expiry.ts";
import type { AppEnv } from "./env.server.ts";

export type MailMessage = { to: string; subject: string; text: string; html: string };

/** One interface for the real provider and the local stand-in. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** Resend when a key is configured; otherwise the dev mailbox at /dev/mail. */
export function createMailer(env: AppEnv, db: Db): Mailer {
  if (!env.RESEND_API_KEY) return { send: (message) => insertDevMail(db, message) };
  const apiKey = env.RESEND_API_KEY;
  return {
    async send(message) {
      const response = await fetch("https://api.resend.com/emails", {
        method: "POST",
        headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
        body: JSON.stringify({ from: env.MAIL_FROM, ...message, to: [message.to] }),
      });
      if (!response.ok) throw new Error(`Mail provider answered ${response.status}: ${await response.text()}`);
    },
  };
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function layout(title: string, paragraphs: string[], action?: { label: string; url: string }) {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${escapeHtml(p)}</p>`).join("");
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#3b4fd8;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600">${escapeHtml(action.label)}</a></p><p style="margin:0 0 16px;font-size:13px;color:#555">Or open this link: ${escapeHtml(action.url)}</p>`
    : "";
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1a1a2e;max-width:560px;margin:0 auto;padding:24px"><h1 style="font-size:20px">${escapeHtml(title)}</h1>${body}${button}<p style="font-size:13px;color:#555">${escapeHtml(PRODUCT_NAME)}</p></body></html>`;
}

/** The spec's send-verification-email: email, name, confirmationUrl, isOrgSignup, organizationName. */
export function verificationEmail(input: {
  email: string;
  name: string;
  confirmationUrl: string;
  isOrgSignup: boolean;
  organizationName?: string | null;
}): MailMessage {
  const intro =
    input.isOrgSignup && input.organizationName
      ? `Confirm your email address to finish creating ${input.organizationName} on ${PRODUCT_NAME}.`
      : `Confirm your email address to start your ${PRODUCT_NAME}.`;
  const paragraphs = [`Hi ${input.name},`, intro, "If you did not sign up, you can ignore this email."];
  return {
    to: input.email,
    subject: `Confirm your email for ${PRODUCT_NAME}`,
    text: `${paragraphs[0]}\n\n${intro}\n\nConfirm your email: ${input.confirmationUrl}\n\n${paragraphs[2]}\n`,
    html: layout("Confirm your email", paragraphs, { label: "Confirm email", url: input.confirmationUrl }),
  };
}

/** Sent instead of a second account, so sign-up never reveals which addresses exist. */
export function existingAccountEmail(input: { email: string; name: string; signInUrl: string }): MailMessage {
  const paragraphs = [
    `Hi ${input.name},`,
    `Someone tried to create a ${PRODUCT_NAME} account with this email address, which already has one. If it was you, just sign in.`,
  ];
  return {
    to: input.email,
    subject: `You already have a ${PRODUCT_NAME} account`,
    text: `${paragraphs.join("\n\n")}\n\nSign in: ${input.signInUrl}\n`,
    html: layout("You already have an account", paragraphs, { label: "Sign in", url: input.signInUrl }),
  };
}

/**
 * The link that confirms another e-mail address of an account (decision 068): single use, for
 * `hours`, and only for the account that added it. The account is not named: whoever adds an
 * address chooses where this mail goes, so it carries no text of theirs.
 */
export function otherAddressEmail(input: { address: string; confirmUrl: string; hours: number }): MailMessage {
  const paragraphs = [
    "Hello,",
    `Someone asked to add ${input.address} to their ${PRODUCT_NAME} account as another email address. It would only be used to recognise badges and credentials issued to this address when they import them; they keep signing in with their own address.`,
    `If it was you, open the link below while signed in to that account and confirm. It works once, for ${input.hours} hours.`,
    "If it was not you, ignore this email: the address is not added unless the link is confirmed from that account.",
  ];
  return {
    to: input.address,
    subject: `Confirm your email address for ${PRODUCT_NAME}`,
    text: `${paragraphs.slice(0, 3).join("\n\n")}\n\nConfirm this address: ${input.confirmUrl}\n\n${paragraphs[3]}\n`,
    html: layout("Confirm this email address", paragraphs, { label: "Confirm this address", url: input.confirmUrl }),
  };
}

/** The forgot-password link: single use, valid for an hour. */
export function passwordResetEmail(input: { email: string; name: string; resetUrl: string }): MailMessage {
  const paragraphs = [
    `Hi ${input.name},`,
    `Someone asked to reset the password of your ${PRODUCT_NAME} account. The link below works once, for 1 hour.`,
    "If it was not you, ignore this email: your password stays as it is.",
  ];
  return {
    to: input.email,
    subject: `Reset your ${PRODUCT_NAME} password`,
    text: `${paragraphs[0]}\n\n${paragraphs[1]}\n\nChoose a new password: ${input.resetUrl}\n\n${paragraphs[2]}\n`,
    html: layout("Reset your password", paragraphs, { label: "Choose a new password", url: input.resetUrl }),
  };
}

/**
 * Sent once per lockout: password sign-in paused after repeated wrong passwords, with a reset
 * link (single use, an hour) that also lifts the pause.
 */
export function signInPausedEmail(input: {
  email: string;
  name: string;
  failures: number;
  minutes: number;
  resetUrl: string;
}): MailMessage {
  const paragraphs = [
    `Hi ${input.name},`,
    `Someone entered a wrong password for your ${PRODUCT_NAME} account ${input.failures} times within ${input.minutes} minutes, so signing in with a password is paused for ${input.minutes} minutes.`,
    "If it was you and you have forgotten your password, choose a new one with the link below: it works once, for 1 hour, and lets you in at once.",
    "If it was not you, your password was not accepted and your account is safe. If your password is short or used elsewhere, choose a new one.",
  ];
  return {
    to: input.email,
    subject: `Password sign-in to ${PRODUCT_NAME} paused`,
    text: `${paragraphs.slice(0, 3).join("\n\n")}\n\nChoose a new password: ${input.resetUrl}\n\n${paragraphs[3]}\n`,
    html: layout("Password sign-in paused", paragraphs, { label: "Choose a new password", url: input.resetUrl }),
  };
}

/** Tells the owner after any password change, so a change they did not make does not go unnoticed. */
export function passwordChangedEmail(input: { email: string; name: string; forgotUrl: string }): MailMessage {
  const paragraphs = [
    `Hi ${input.name},`,
    `The password of your ${PRODUCT_NAME} account was just changed, and every other device was signed out.`,
    "If this was not you, choose a new password now with the link below.",
  ];
  return {
    to: input.email,
    subject: "Your password was changed",
    text: `${paragraphs.join("\n\n")}\n\nReset your password: ${input.forgotUrl}\n`,
    html: layout("Your password was changed", paragraphs, { label: "Reset your password", url: input.forgotUrl }),
  };
}

/** A change of the ways an account signs in, as the owner is told of it. */
export type SignInMethodChange = "passkey added" | "passkey removed" | "two-factor on" | "two-factor off";

const SIGN_IN_METHOD_CHANGES: Record<SignInMethodChange, { subject: string; what: string }> = {
  "passkey added": {
    subject: "A passkey was added to your account",
    what: "A passkey was added to your account: it can now sign you in without your password.",
  },
  "passkey removed": {
    subject: "A passkey was removed from your account",
    what: "A passkey was removed from your account: it can no longer sign you in.",
  },
  "two-factor on": {
    subject: "Two-factor authentication was turned on",
    what: "Two-factor authentication was turned on for your account: signing in with your password now also asks for a code from your authenticator app.",
  },
  "two-factor off": {
    subject: "Two-factor authentication was turned off",
    what: "Two-factor authentication was turned off for your account: signing in now asks for your password only.",
  },
};

/**
 * Tells the owner whenever a way to sign in is added, removed, turned on or off (ASVS 2.2.3), so a
 * change they did not make does not go unnoticed.
 */
export function signInMethodChangedEmail(input: {
  email: string;
  name: string;
  change: SignInMethodChange;
  settingsUrl: string;
}): MailMessage {
  const { subject, what } = SIGN_IN_METHOD_CHANGES[input.change];
  const paragraphs = [
    `Hi ${input.name},`,
    `${what} (${PRODUCT_NAME})`,
    "If this was not you, choose a new password at once and check your sign-in settings: the link below opens them.",
  ];
  return {
    to: input.email,
    subject,
    text: `${paragraphs.join("\n\n")}\n\nYour sign-in settings: ${input.settingsUrl}\n`,
    html: layout(subject, paragraphs, { label: "Open your settings", url: input.settingsUrl }),
  };
}

/** Sent when an organisation offers an achievement; the person accepts it on their passport. */
export function recognitionEmail(input: {
  email: string;
  name: string;
  title: string;
  organizationName: string;
  passportUrl: string;
  settingsUrl: string;
}): MailMessage {
  const paragraphs = [
    `Hi ${input.name},`,
    `${input.organizationName} recognised you with an achievement: "${input.title}".`,
    "Accept it on your passport to show it to everyone you share your passport with.",
  ];
  const optOut = `You get this email because recognition emails are on in your settings: ${input.settingsUrl}`;
  return {
    to: input.email,
    subject: `${input.organizationName} recognised you: ${input.title}`,
    text: `${paragraphs.join("\n\n")}\n\nAccept it: ${input.passportUrl}\n\n${optOut}\n`,
    html: layout("You have a new achievement", [...paragraphs, optOut], {
      label: "Review and accept",
      url: input.passportUrl,
    }),
  };
}

export function domainLapsedEmail(input: {
  email: string;
  name: string;
  domain: string;
  organizationName: string;
  problem: string;
  profileUrl: string;
}): MailMessage {
  const paragraphs = [
    `Hi ${input.name},`,
    `${input.domain} is no longer verified for ${input.organizationName}: its DNS record was not found in three daily checks in a row. ${input.problem}`,
    "Until it is verified again, new credentials of the organisation do not name the domain and its pages say the issuer's name is not verified. Publish the record again, then verify the domain in Organisation profile.",
  ];
  return {
    to: input.email,
    subject: `${input.domain} is no longer verified for ${input.organizationName}`,
    text: `${paragraphs.join("\n\n")}\n\nOrganisation profile: ${input.profileUrl}\n`,
    html: layout("Domain verification lapsed", paragraphs, {
      label: "Open Organisation profile",
      url: input.profileUrl,
    }),
  };
}

/**
 * An expiry reminder (decision 071), 30 and 7 days before: to the holder (`renewUrl` is their
 * passport) or to an admin of the giving organisation (the given-achievements list, to renew it).
 * Sent only to those whose recognition e-mails are on, as the settings link says.
 */
export function expiryReminderEmail(input: {
  email: string;
  name: string;
  title: string;
  organizationName: string;
  holderName: string | null;
  validUntil: string;
  daysLeft: number;
  url: string;
  settingsUrl: string;
}): MailMessage {
  const until = formatLongDate(input.validUntil);
  const paragraphs = input.holderName
    ? [
        `Hi ${input.name},`,
        `"${input.title}", which ${input.organizationName} gave ${input.holderName}, is valid until ${until}: ${daysLeftText(input.daysLeft)}.`,
        "Renew it from Given achievements to give a new 'Valid until'; the member accepts the renewal as usual.",
      ]
    : [
        `Hi ${input.name},`,
        `Your achievement "${input.title}" from ${input.organizationName} is valid until ${until}: ${daysLeftText(input.daysLeft)}.`,
        `After that it shows as expired on your passport. Ask ${input.organizationName} to renew it.`,
      ];
  const optOut = `You get this email because recognition emails are on in your settings: ${input.settingsUrl}`;
  const label = input.holderName ? "Open Given achievements" : "Open your passport";
  return {
    to: input.email,
    subject: `"${input.title}" expires on ${until}`,
    text: `${paragraphs.join("\n\n")}\n\n${label}: ${input.url}\n\n${optOut}\n`,
    html: layout(`"${input.title}" expires on ${until}`, [...paragraphs, optOut], {
      label,
      url: input.url,
    }),
  };
}
