// How an answer of the auth library (an endpoint called with `asResponse`) is read: plain Web
// values, no Remix, so the accounts service (app/services/accounts) and the sign-in helpers share it.

/** Who a sign-in signed in, as the auth library's answers name them. */
export type SignedInUser = { id: string; name: string };

/**
 * An auth library endpoint's answer, read once: its JSON body with the library's error `code` and
 * `message` on a refusal, and the cookies it sets, to pass on.
 */
export async function readAuthAnswer<Body extends object>(response: Response) {
  const body = (await response.json().catch(() => ({}))) as Partial<Body> & { code?: string; message?: string };
  const headers = new Headers();
  for (const cookie of response.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  return { ok: response.ok, status: response.status, body, headers };
}

/** Request headers that carry the cookies just set, to act as the new session. */
export function cookieHeaders(setCookies: Headers) {
  const cookie = setCookies
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  return new Headers({ Cookie: cookie });
}
