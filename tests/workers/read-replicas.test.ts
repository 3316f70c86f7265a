import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { d1StartOf } from "#workers/load-context.ts";
import { cookiesFrom, createAccount, get, newClientIp, ORIGIN, PASSWORD, postForm } from "./helpers.ts";

// Reads near the reader (issue 18, docs/decisions/029): every request reads through one D1
// session; a signed-in browser is handed the session's bookmark in a cookie, and its next
// request starts from it, so they read their own writes even from a replica.

const BOOKMARK_COOKIE = "passport_d1_bookmark";
const D1_BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

const bookmarkLine = (response: Response) =>
  response.headers.getSetCookie().find((line) => line.startsWith(`${BOOKMARK_COOKIE}=`)) ?? null;

/** The bookmark inside the signed cookie (Remix's format: base64 JSON, a dot, the signature). */
function bookmarkOf(line: string) {
  const value = decodeURIComponent(line.slice(BOOKMARK_COOKIE.length + 1).split(";")[0]!);
  return JSON.parse(decodeURIComponent(escape(atob(value.slice(0, value.lastIndexOf("."))))));
}

/** The Cookie header with only the session cookie (the bookmark left out). */
const withoutBookmark = (cookie: string) =>
  cookie
    .split("; ")
    .filter((pair) => !pair.startsWith(`${BOOKMARK_COOKIE}=`))
    .join("; ");

describe("the D1 bookmark cookie", () => {
  it("is set after a write, and the next request carrying it reads that write", async () => {
    const person = await createAccount({ name: "Robin Reader" });
    const saved = await postForm(
      "/passport",
      { intent: "update-bio", bio: "Written a moment ago." },
      { cookie: person.cookie },
    );
    expect(saved.status).toBe(302);
    const line = bookmarkLine(saved);
    expect(line).not.toBeNull();
    expect(bookmarkOf(line!)).toMatch(D1_BOOKMARK);

    const page = await get("/passport", cookiesFrom(saved, person.cookie));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Written a moment ago.");
  });

  it("moves forward with each write: bookmarks sort oldest to newest", async () => {
    const person = await createAccount();
    const first = await postForm("/passport", { intent: "update-bio", bio: "One." }, { cookie: person.cookie });
    const cookie = cookiesFrom(first, person.cookie);
    const second = await postForm("/passport", { intent: "update-bio", bio: "Two." }, { cookie });
    const [before, after] = [bookmarkOf(bookmarkLine(first)!), bookmarkOf(bookmarkLine(second)!)];
    expect(after > before).toBe(true);
  });

  it("is HttpOnly, SameSite=Lax and site-wide; Secure over https", async () => {
    const person = await createAccount();
    const overHttp = await postForm("/passport", { intent: "update-bio", bio: "Plain." }, { cookie: person.cookie });
    const line = bookmarkLine(overHttp)!;
    expect(line).toMatch(/;\s*HttpOnly/i);
    expect(line).toMatch(/;\s*SameSite=Lax/i);
    expect(line).toMatch(/;\s*Path=\//i);
    expect(line).not.toMatch(/;\s*Secure/i);

    const secureOrigin = "https://localhost";
    const signedIn = await SELF.fetch(`${secureOrigin}/auth`, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: secureOrigin,
        Host: "localhost",
        "cf-connecting-ip": newClientIp(),
      },
      body: new URLSearchParams({ intent: "signin", email: person.email, password: PASSWORD }),
      redirect: "manual",
    });
    expect(signedIn.status).toBe(302);
    expect(bookmarkLine(signedIn)).toMatch(/;\s*Secure/i);
  });

  it("is handed to whoever signs in, so their first signed-in page finds the new session", async () => {
    const person = await createAccount();
    const signedIn = await postForm("/auth", { intent: "signin", email: person.email, password: PASSWORD });
    expect(signedIn.status).toBe(302);
    expect(bookmarkLine(signedIn)).not.toBeNull();
    const dashboard = await get("/dashboard", cookiesFrom(signedIn));
    expect(dashboard.status).toBe(200);
  });

  it("is never set for an anonymous page view, which stays shareable", async () => {
    const person = await createAccount({ name: "Public Person" });
    for (const path of ["/", `/passport/${person.id}`, "/auth", "/privacy"]) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      expect(bookmarkLine(response), path).toBeNull();
    }
  });

  it("is not set for an anonymous form that signs nobody in", async () => {
    const person = await createAccount();
    const refused = await postForm("/auth", { intent: "signin", email: person.email, password: "wrong-password-1" });
    expect(refused.status).toBe(401);
    expect(bookmarkLine(refused)).toBeNull();
  });

  it("ignores a forged or tampered bookmark: the page still works and a signed one replaces it", async () => {
    const person = await createAccount({ name: "Forge Target" });
    const session = withoutBookmark(person.cookie);
    const forgeries = [
      "ffffffff-ffffffff-ffffffff-ffffffffffffffffffffffffffffffff",
      `${btoa(JSON.stringify("ffffffff-ffffffff-ffffffff-ffffffffffffffffffffffffffffffff"))}.bm90LWEtc2lnbmF0dXJl`,
      "x".repeat(5000),
      "%00%0d%0a",
    ];
    for (const forged of forgeries) {
      const page = await get("/passport", `${session}; ${BOOKMARK_COOKIE}=${forged}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("Forge Target");
      const line = bookmarkLine(page);
      expect(line).not.toBeNull();
      expect(bookmarkOf(line!)).toMatch(D1_BOOKMARK);
    }
    // And an anonymous visitor with a forged one reads the public page as anyone would.
    const visit = await get(`/passport/${person.id}`, `${BOOKMARK_COOKIE}=${forgeries[1]}`);
    expect(visit.status).toBe(200);
  });
});

describe("where a request's reads start", () => {
  const request = (method: string, cookie?: string) =>
    new Request(`${ORIGIN}/`, { method, headers: cookie ? { Cookie: cookie } : {} });
  const bookmark = "00000000-0000000b-00000000-00000000000000000000000000000000";

  it("an anonymous page view reads from any copy; a person or a write starts at the primary", () => {
    expect(d1StartOf(request("GET"), null)).toBe("first-unconstrained");
    expect(d1StartOf(request("HEAD"), null)).toBe("first-unconstrained");
    expect(d1StartOf(request("POST"), null)).toBe("first-primary");
    expect(d1StartOf(request("GET", "passport.session_token=abc.def"), null)).toBe("first-primary");
    expect(d1StartOf(request("GET", "__Secure-passport.session_token=abc.def"), null)).toBe("first-primary");
  });

  it("a carried bookmark wins, for anyone", () => {
    expect(d1StartOf(request("GET"), bookmark)).toBe(bookmark);
    expect(d1StartOf(request("POST", "passport.session_token=abc.def"), bookmark)).toBe(bookmark);
  });
});
