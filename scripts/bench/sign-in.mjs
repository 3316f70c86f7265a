// Signs a seeded demo account in through the /auth form, posted as a browser without JavaScript
// would, and returns the cookies the answer set: what the signed-in pages of the bench send.

// From db/seed.ts (DEMO_USERS, DEMO_PASSWORD): the bench runs on plain Node and cannot import it.
export const DEMO_ACCOUNTS = {
  admin: "admin@example.com", // organisation admin of the demo organisation
  member: "alex@example.com", // member with a full passport
};
const DEMO_PASSWORD = "passport-demo";

/** `[{ name, value }]` of the session cookies for `email`; throws when the sign-in is refused. */
export async function signIn(origin, email, password = DEMO_PASSWORD) {
  const response = await fetch(`${origin}/auth`, {
    method: "POST",
    redirect: "manual",
    // Same origin, as the Worker's cross-site check wants for a form post.
    headers: { Origin: origin, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent: "signin", email, password }),
  });
  const cookies = response.headers
    .getSetCookie()
    .map((header) => header.split(";")[0])
    .map((pair) => ({ name: pair.slice(0, pair.indexOf("=")), value: pair.slice(pair.indexOf("=") + 1) }))
    .filter((cookie) => cookie.value !== "");
  if (response.status < 300 || response.status >= 400 || cookies.length === 0)
    throw new Error(`Signing in ${email} answered ${response.status} without a session: is the demo seed loaded?`);
  return cookies;
}

export const cookieHeader = (cookies) => cookies.map(({ name, value }) => `${name}=${value}`).join("; ");
