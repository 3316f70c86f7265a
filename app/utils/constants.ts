// Business constants shared by pages, rules and billing, typed once.
export const PRODUCT_NAME = "Career Passport";
export const COPYRIGHT_YEAR = 2025;

/** The member subscription: one constant, rendered on the terms page and charged by Stripe. */
export const MEMBER_SUBSCRIPTION = { unitAmount: 299, currency: "GBP", interval: "month" } as const;
/**
 * MEMBER_SUBSCRIPTION's price as en-GB writes it. Written out, not formatted at import: every page
 * loads this module, and a currency formatter there cost each one the browser's locale data (see
 * app/utils/on-first-use.ts). tests/workers/subscriptions.test.ts holds it to the charged amount.
 */
export const MEMBER_PRICE_LABEL = "£2.99";
export const SUBSCRIPTION_PRODUCT = `${PRODUCT_NAME} member subscription`;

export const MINIMUM_AGE = 16;
export const GOVERNING_LAW = "England and Wales";
export const RETENTION_MONTHS = 12;

export const PUBLIC_PASSPORT_INITIAL_ENTRIES = 8;
/**
 * A public passport with at most this many entries prints every one of them (Ctrl+P on the page
 * itself: they are on the page, shown on paper only); a longer one prints its first entries and
 * the address of its print view (issue 32).
 */
export const PRINTED_ENTRIES_MAX = 50;
/** The organisation switcher's page parameters (`switcher.after`, `switcher.before`), on any signed-in page. */
export const ORGANIZATION_SWITCHER_PREFIX = "switcher.";
export const REDIRECT_DELAY_MS = 2000;
/**
 * An action answer carrying this key set a toast cookie for the page it leads to (a join's
 * dashboard): the root's loader does not revalidate after it, so the toast waits for that page.
 */
export const TOAST_AFTER_REDIRECT = "toastAfterRedirect";
export const ARCHIVE_GRACE_DAYS = 30;

/** The forgot-password request page and the page a reset link opens. */
export const FORGOT_PASSWORD_PATH = "/auth/forgot-password";
export const RESET_PASSWORD_PATH = "/auth/reset-password";

/** The longest name a person may give one of their passkeys (Settings, decision 061). */
export const PASSKEY_NAME_MAX_LENGTH = 50;

/** How long the link that confirms another e-mail address works (decision 068). */
export const OTHER_ADDRESS_LINK_HOURS = 24;

/** Said to a person whose accepted achievement's credential is still to be signed (issue 43). */
export const CREDENTIAL_PREPARING = "Your credential is being prepared";
