// What the organisation's "Admin sign-in" setting says (decision 062): a plain module, so the page
// that shows it and the service that refuses with it share one wording.

/** Settings' section where a person turns on two-factor authentication. */
export const STRONG_FACTOR_SETUP_PATH = "/settings/security#two-factor";

/** Where an admin whose session used no strong factor confirms one (decision 089), then returns. */
export const STEP_UP_PATH = "/auth/step-up";
export const stepUpPath = (back: string) => `${STEP_UP_PATH}?redirectTo=${encodeURIComponent(back)}`;

/** Why an admin without a strong factor of their own may not require one of the organisation's admins. */
export const OWN_STRONG_FACTOR_FIRST = "Turn on two-factor authentication or add a passkey for your own account first.";
