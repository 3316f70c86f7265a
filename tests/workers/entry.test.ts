import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";

const ORIGIN = "http://localhost";
const get = (path: string, init?: RequestInit) => SELF.fetch(`${ORIGIN}${path}`, init);
const post = (path: string, headers: Record<string, string>, body = "intent=cookie-consent&value=accepted") =>
  SELF.fetch(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body,
    redirect: "manual",
  });

describe("the Worker entry routes each prefix to its handler", () => {
  it("pages go to Remix", async () => {
    const response = await get("/");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toContain("text/html");
    expect(await response.text()).toContain("Start Your Passport");
  });

  it("a page that ships no scripts (the landing page for a visitor) is the document alone", async () => {
    const html = await (await get("/")).text();
    expect(html).not.toContain("<script");
    // Nothing after the document: no empty transfer of loader data for a router that never runs.
    expect(html.endsWith("</html>")).toBe(true);
  });

  it("a page that ships scripts hands its loader data to the browser's router whole, then closes it", async () => {
    // Rendered to one string (decision 097), the transfer is settled before the render starts.
    const html = await (await get("/auth")).text();
    expect(html).toContain('"routes/auth"');
    expect(html.match(/streamController\.enqueue\(/g)).toHaveLength(1);
    expect(html.indexOf("streamController.close()")).toBeGreaterThan(html.indexOf("streamController.enqueue("));
  });

  it("/api/auth/* goes to the auth library", async () => {
    const response = await get("/api/auth/ok");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
  });

  it("/media/* serves R2 objects, with ranges, and nothing outside them", async () => {
    await env.MEDIA.put("avatars/u1/avatar.png", new Uint8Array([1, 2, 3, 4, 5]), {
      httpMetadata: { contentType: "image/png" },
    });
    const whole = await get("/media/avatars/u1/avatar.png");
    expect(whole.status).toBe(200);
    expect(whole.headers.get("Content-Type")).toBe("image/png");
    expect([...new Uint8Array(await whole.arrayBuffer())]).toEqual([1, 2, 3, 4, 5]);

    const part = await get("/media/avatars/u1/avatar.png", { headers: { Range: "bytes=1-2" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("Content-Range")).toBe("bytes 1-2/5");
    expect([...new Uint8Array(await part.arrayBuffer())]).toEqual([2, 3]);

    expect((await get("/media/avatars/u1/missing.png")).status).toBe(404);
    expect((await get("/media/avatars/%2E%2E/u1/avatar.png")).status).toBe(404);
  });

  it("the notification socket demands an upgrade, our Origin and a session", async () => {
    const path = "/api/notifications/socket";
    expect((await get(path)).status).toBe(426);
    const upgrade = { Upgrade: "websocket", Connection: "Upgrade" };
    expect((await get(path, { headers: { ...upgrade, Origin: "https://evil.example" } })).status).toBe(403);
    expect((await get(path, { headers: { ...upgrade, Origin: ORIGIN } })).status).toBe(401);
  });

  it("the Stripe webhook takes cross-site posts and checks the signature instead", async () => {
    const response = await post(
      "/api/stripe/webhook",
      { Origin: "https://stripe.example", "Sec-Fetch-Site": "cross-site" },
      "{}",
    );
    expect(response.status).not.toBe(403);
  });

  it("unknown paths get the 404 page with status 404", async () => {
    const response = await get("/no/such/page");
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("Oops! Page not found");
  });
});

describe("security baseline", () => {
  it("every HTML page carries a nonce CSP that matches its scripts, and the other headers", async () => {
    const response = await get("/terms");
    const csp = response.headers.get("Content-Security-Policy") ?? "";
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("frame-ancestors 'none'");
    const html = await response.text();
    const scriptNonces = [...html.matchAll(/<script[^>]*nonce="([^"]+)"/g)].map((match) => match[1]);
    expect(scriptNonces.length).toBeGreaterThan(0);
    expect(new Set(scriptNonces)).toEqual(new Set([nonce]));
    expect(html).not.toMatch(/<script(?![^>]*nonce=)[^>]*>/);

    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
    expect(response.headers.get("Permissions-Policy")).toContain("camera=()");
    expect(response.headers.get("X-Request-Id")).toBeTruthy();
    expect(response.headers.get("Strict-Transport-Security")).toBeNull();
  });

  it("a fresh nonce for every response", async () => {
    const nonceOf = async () =>
      /'nonce-([^']+)'/.exec((await get("/")).headers.get("Content-Security-Policy") ?? "")?.[1];
    expect(await nonceOf()).not.toBe(await nonceOf());
  });

  it("HSTS when served over https", async () => {
    const response = await SELF.fetch("https://passport.example/");
    expect(response.headers.get("Strict-Transport-Security")).toContain("max-age=");
  });

  it("refuses a mutation from a foreign Origin or a cross-site fetch, and changes nothing", async () => {
    const foreign = await post("/preferences", { Origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get("Set-Cookie")).toBeNull();

    const crossSite = await post("/preferences", { "Sec-Fetch-Site": "cross-site" });
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers.get("Set-Cookie")).toBeNull();
  });

  it("lets the app's own forms through", async () => {
    const response = await post(
      "/preferences",
      { Origin: ORIGIN, "Sec-Fetch-Site": "same-origin" },
      "intent=cookie-consent&value=accepted&redirectTo=/terms",
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/terms");
    expect(response.headers.get("Set-Cookie")).toContain("cookie-consent=");
  });

  it("never redirects a preference post off-site", async () => {
    const response = await post(
      "/preferences",
      { Origin: ORIGIN },
      "intent=cookie-consent&value=declined&redirectTo=//evil.example",
    );
    expect(response.headers.get("Location")).toBe("/");
  });
});

describe("redirects after sign-in stay on this site", () => {
  it("ignores an outside redirectTo", async () => {
    const { createAccount, postForm, PASSWORD } = await import("./helpers.ts");
    const { email } = await createAccount();
    for (const redirectTo of ["//evil.example", "https://evil.example/x", "/\\evil.example"]) {
      const response = await postForm("/auth", { intent: "signin", email, password: PASSWORD, redirectTo });
      expect(response.headers.get("Location"), redirectTo).toBe("/dashboard");
    }
    const inside = await postForm("/auth", { intent: "signin", email, password: PASSWORD, redirectTo: "/settings" });
    expect(inside.headers.get("Location")).toBe("/settings");
  });
});
