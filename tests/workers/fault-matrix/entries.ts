import type { Caller } from "../authorization-matrix/table.ts";

/**
 * One entry of the fault table: what a write path promises when its parts fail. `{}` is the
 * default and the strongest promise; anything else says why, in words, and never skips.
 */
export type Entry = {
  /** Who calls (default: the first caller the authorization matrix allows). */
  caller?: Caller;
  /**
   * D1's writes all fail. Default: the person is shown a message (a toast or the page's alert,
   * the spec's title for the action) and neither D1 nor R2 changed. Or, said in words, why the
   * path writes nothing (so it answers as it always does): `{ writesNothing: "reads only" }`.
   */
  d1?: { writesNothing: string };
  /**
   * The same submission sent twice (the first answer lost). Default: no table (nor R2) has more
   * rows after the second than after the first. `grows` names the tables a retry adds to, and why.
   */
  retry?: { grows: string[]; why: string };
  /**
   * The first send of the retry column writes something (D1 or R2) when its caller may: unless
   * this says, in words, why it writes nothing in the matrix's world (a value already set, say).
   */
  noEffect?: string;
};

const MAILS_AGAIN = "each request mails again (rate-limited per address): the account is created once";
const NEW_CHALLENGE = "each request is a fresh passkey challenge, kept 5 minutes";
const STEPPED_UP =
  "nobody here holds a password-only session with a factor (admin-step-up.test.ts has one): the page sends them on";
const NEW_OFFER = "each press opens a fresh one-time exchange (its QR code), which expires";

/** Keyed by the authorization matrix's row label (`label(row)` in authorization-matrix/table.ts). */
export const FAULTS: Record<string, Entry> = {
  "routes/dev.dns[.json] action": {
    retry: { grows: ["dev_dns_records"], why: "the stand-in keeps every record posted, as a DNS zone may" },
  },
  "routes/dev.web[.json] action": {},
  "routes/dev.cloudflare.$ action": { d1: { writesNothing: "the export's stand-in reads only" } },
  "routes/preferences action (cookie-consent)": { d1: { writesNothing: "a cookie only" } },
  "routes/auth_.signout action": { caller: "individual" },
  "routes/auth action (signin)": { retry: { grows: ["sessions"], why: "each sign-in is a session of its own" } },
  "routes/auth action (signup)": { retry: { grows: ["dev_mail"], why: MAILS_AGAIN } },
  "routes/auth action (org-signup)": { retry: { grows: ["dev_mail"], why: MAILS_AGAIN } },
  "routes/auth action (resend-verification)": { retry: { grows: ["dev_mail"], why: MAILS_AGAIN } },
  "routes/auth_.two-factor action (verify-code)": {},
  "routes/auth_.two-factor action (verify-recovery-code)": {},
  "routes/auth_.step-up action (confirm-code)": { d1: { writesNothing: STEPPED_UP } },
  "routes/auth_.step-up action (confirm-recovery-code)": { d1: { writesNothing: STEPPED_UP } },
  "routes/auth_.step-up action (confirm-passkey)": { d1: { writesNothing: STEPPED_UP } },
  "routes/auth_.passkey-options action": { retry: { grows: ["verifications"], why: NEW_CHALLENGE } },
  "routes/auth action (passkey-signin)": {},
  "routes/auth_.forgot-password action": {
    retry: { grows: ["dev_mail", "verifications"], why: "each request mails a new link (rate-limited per address)" },
  },
  "routes/auth_.reset-password action (valid token)": {},
  "routes/auth_.reset-password action (unknown token)": {},
  "routes/auth_.confirm action (valid token, no password)": { d1: { writesNothing: "asks for the password first" } },
  "routes/auth_.confirm action (valid token, wrong password)": {},
  "routes/auth_.confirm action (valid token and password)": {},
  "routes/auth_.confirm action (forged token)": { d1: { writesNothing: "refused: the token is forged" } },
  "routes/_app.dashboard action (give-achievement)": {},
  "routes/_app.dashboard action (give-achievement (with a file))": {},
  "routes/_app.dashboard action (create-organization)": {},
  "routes/_app.dashboard action (reset-invite)": {},
  "routes/_app.dashboard action (approve)": {},
  "routes/_app.dashboard action (reject)": {},
  "routes/_app.dashboard action (remove)": {},
  "routes/_app.dashboard action (request-join)": {},
  "routes/_app.dashboard action (leave)": {},
  "routes/_app.dashboard action (subscribe)": {
    d1: { writesNothing: "redirects to the Stripe checkout; its webhook writes" },
  },
  "routes/_app.dashboard action (manage-subscription)": { d1: { writesNothing: "redirects to the Stripe portal" } },
  "routes/_app.dashboard action (cancel-subscription)": {},
  "routes/_app.notifications action (mark-read)": {},
  "routes/_app.notifications action (mark-all-read)": { noEffect: "the caller has no unread notification" },
  "routes/_app.passport._index action (add-self-achievement)": {},
  "routes/_app.passport._index action (update-bio)": {},
  "routes/_app.passport._index action (accept)": {},
  "routes/_app.passport._index action (reject)": {},
  "routes/_app.passport._index action (set-visibility)": { noEffect: "the entry is already as asked" },
  "routes/_app.passport.import-history action (read-history)": {
    noEffect: "reading a file previews it; adding writes",
  },
  "routes/_app.passport.import-history action (add-history)": {},
  "routes/_app.passport._index action (delete-import)": {},
  "routes/_app.passport.import action (check-import)": {
    noEffect: "the matrix pastes no badge: refused, nothing kept",
  },
  "routes/_app.passport.import action (add-import)": {},
  "routes/_app.passport.import action (prove-wallet)": {},
  "routes/_app.passport._index action (add-to-wallet)": {
    retry: { grows: ["wallet_exchanges", "openid4vci_grants"], why: NEW_OFFER },
  },
  "routes/_app.passport._index action (accept-with-wallet)": { retry: { grows: ["wallet_exchanges"], why: NEW_OFFER } },
  "routes/_app.passport.$userId.endorse.$achievementId action (endorse)": {},
  "routes/_app.passport.$userId.endorse.$achievementId action (endorse for organisation A)": {},
  "routes/_app.passport.endorsements action (show-endorsement)": {},
  "routes/_app.passport.endorsements action (hide-endorsement)": {},
  "routes/_app.settings._index action (update-profile)": {},
  "routes/_app.settings.security action (change-password)": {},
  "routes/_app.settings._index action (send-feedback)": {},
  "routes/_app.settings.danger action (archive)": {},
  "routes/_app.settings action (purge)": {},
  "routes/_app.settings action (purge (wrong password))": { caller: "archived" },
  "routes/_app.settings action (reactivate)": {},
  "routes/_app.settings.sessions action (sign-out-session)": {},
  "routes/_app.settings.sessions action (sign-out-other-sessions)": { noEffect: "the caller has no other session" },
  "routes/_app.settings.security action (enable-two-factor)": {},
  "routes/_app.settings.security action (confirm-two-factor)": {},
  "routes/_app.settings.security action (regenerate-recovery-codes)": {},
  "routes/_app.settings.security action (disable-two-factor)": {},
  "routes/_app.settings.security action (passkey-options)": { retry: { grows: ["verifications"], why: NEW_CHALLENGE } },
  "routes/_app.settings.security action (add-passkey)": {},
  "routes/_app.settings.security action (rename-passkey)": {},
  "routes/_app.settings.security action (remove-passkey)": {},
  "routes/_app.settings.data action (forget-holder-key)": {},
  "routes/_app.settings.addresses action (add-other-address)": {},
  "routes/_app.settings.addresses action (resend-other-address)": {
    noEffect: "the link went out just now: answered as sent",
  },
  "routes/_app.settings.addresses action (remove-other-address)": {},
  "routes/_app.settings_.addresses.confirm action": {},
  "routes/_app.settings._index action (update-preferences)": {},
  "routes/settings.export action (download my data)": { noEffect: "a download (its count is a rate-limit row)" },
  "routes/join.$organizationId action (join with the invite code)": {},
  "routes/join.$organizationId action (join without a valid code)": {},
  "routes/organizations.active action": { noEffect: "the organisation is already the active one" },
  "routes/profile.media action (upload-avatar)": {},
  "routes/profile.media action (upload-intro-video)": {},
  "routes/profile.media action (remove-intro-video)": {},
  "routes/billing.simulated-checkout action (complete)": {
    retry: {
      grows: ["processed_stripe_events"],
      why: "each completion is a simulated Stripe event of its own; the subscription is set once",
    },
  },
  "routes/billing.simulated-portal action (cancel-subscription)": {},
  "routes/verify action (verify a pasted credential)": {},
  "routes/_app.dashboard_.achievements action (revoke)": {},
  "routes/_app.dashboard_.achievements action (renew)": {},
  "routes/_app.dashboard_.organization action (add-domain)": {},
  "routes/_app.dashboard_.organization action (verify-domain)": {
    noEffect: "no DNS record is published: not verified",
  },
  "routes/_app.dashboard_.organization action (remove-domain)": {},
  "routes/_app.dashboard_.organization action (set-admin-sign-in)": { noEffect: "the matrix sends the setting it has" },
  "routes/_app.dashboard_.organization action (set-membership-credentials)": {
    noEffect: "the matrix sends the setting it has",
  },
  "hono:POST /credentials/exchanges/:id action (signed presentation)": {},
  "hono:POST /credentials/exchanges/:id action (signed acceptance)": {},
  "hono:POST /api/stripe/webhook action (signed checkout)": {},
  "hono:POST /credentials/exchanges/:id action (unsigned presentation)": {},
  "hono:POST /credentials/exchanges/:id action (unsigned acceptance)": {},
  "hono:POST /credentials/exchanges/:id action (unknown exchange)": {},
  "hono:POST /openid4vci/token action (pre-authorised code and its transaction code)": {},
  "hono:POST /openid4vci/credential action (access token and proof)": {},
  "hono:POST /openid4vci/token action (unknown pre-authorised code)": {},
  "hono:POST /openid4vci/nonce action": {
    retry: { grows: ["openid4vci_grants"], why: "every nonce request gets a fresh nonce (OpenID4VCI)" },
  },
  "hono:POST /openid4vci/credential action (no access token)": {},
  "hono:POST /api/stripe/webhook action (unsigned)": {},
  "hono:POST /api/stripe/webhook action (wrongly signed)": {},
  "hono:POST /api/auth/sign-in/email action": {},
  "hono:POST /api/auth/sign-out action": {},
  "hono:POST /api/auth/request-password-reset action": {},
  "hono:POST /api/auth/reset-password action": {},
  "hono:POST /api/auth/sign-up/email action": {},
  "hono:POST /api/auth/change-password action": {},
  "hono:POST /api/auth/update-user action": {},
  "hono:POST /api/auth/send-verification-email action": {},
};
