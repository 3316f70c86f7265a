// The screens of /auth. The URL's ?mode= picks one, so every step is a link that works
// without JavaScript; the spec's and the e-mails' `/auth?mode=...` URLs stay as they are.

export const MODES = {
  signin: { param: null, title: "Sign in" },
  choose: { param: "signup", title: "Create your account" },
  signup: { param: "personal", title: "Create your passport" },
  "org-signup": { param: "organisation", title: "Create an organisation account" },
  "verify-email": { param: "verify-email", title: "Check your email" },
} as const;
export type Mode = keyof typeof MODES;

export function modeFromUrl(url: URL): Mode {
  const param = url.searchParams.get("mode");
  const match = Object.entries(MODES).find(([, mode]) => mode.param === param);
  return (match?.[0] as Mode | undefined) ?? "signin";
}

/** The URL of a screen, keeping where the visitor was going (redirectTo) and nothing else. */
export function modeHref(mode: Mode, searchParams: URLSearchParams) {
  const params = new URLSearchParams();
  const param = MODES[mode].param;
  if (param) params.set("mode", param);
  const redirectTo = searchParams.get("redirectTo");
  if (redirectTo) params.set("redirectTo", redirectTo);
  const query = params.toString();
  return query ? `/auth?${query}` : "/auth";
}

/** Where "Check your email" is, for the address just used (a redirect target). */
export const checkEmailHref = (email: string) => `/auth?mode=verify-email&email=${encodeURIComponent(email)}`;
