import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, inject, it, vi } from "vitest";
import {
  get,
  mp4Bytes,
  ORIGIN,
  PNG_BYTES,
  postForm,
  postMultipart,
  joinByInviteLink,
  productionBindings,
} from "./helpers.ts";
import { issuedCredential } from "./credentials-helpers.ts";
import { createOrganisation, createPersonWithAchievements, giveAchievement, uniqueName } from "./factories.ts";
import { today } from "#tests/today.ts";
import { addHistory, csvFile, readHistory, reviewOf } from "./history-import-helpers.ts";

// The public passport at the edge: one D1 round trip to render, none from the cache, and every
// change that alters a passport removes it from the cache before the change's response returns.

/**
 * A render as the middleware describes it to the store: when it began, under the issuer
 * generation current here (decision 093), and nothing else in its way.
 */
async function render(startedAt: number, readBookmark: string | null = null) {
  const { issuerGeneration, passportCacheOrigin } = await import("#app/utils/passport-cache.server.ts");
  const { generation } = await issuerGeneration(passportCacheOrigin(env));
  return {
    startedAt,
    build: "a-build",
    readBookmark,
    cacheControl: "public, max-age=0, s-maxage=300",
    issuerGeneration: generation,
  };
}

/** The primary's D1 bookmark now: what a render reading a copy this recent reports. */
async function bookmarkNow() {
  const session = env.DB.withSession("first-primary");
  await session.prepare("select 1").first();
  return session.getBookmark()!;
}

const personWithAchievements = (titles: string[]) => createPersonWithAchievements("Casey Cached", titles);

const visit = (userId: string, query = "", headers: Record<string, string> = {}) =>
  SELF.fetch(`${ORIGIN}/passport/${userId}${query}`, { headers });
const cacheStatus = (response: Response) => response.headers.get("X-Passport-Cache");
const roundTrips = (response: Response) => Number(response.headers.get("X-D1-Round-Trips"));

/** Visits until the page is served from the cache (the first visit stores it after responding). */
async function warm(userId: string, query = "") {
  const { edgeCache, passportCacheEntry, passportCacheOrigin, passportPage } =
    await import("#app/utils/passport-cache.server.ts");
  const response = await visit(userId, query);
  await response.text();
  if (cacheStatus(response) === "HIT") return;
  // One visit, so one store in flight: wait for it to land, never for a second visit's.
  const { key } = passportCacheEntry(
    passportPage(new URL(`${ORIGIN}/passport/${userId}${query}`))!,
    false,
    passportCacheOrigin(env),
  );
  await vi.waitFor(async () =>
    expect(await edgeCache().match(key), "the passport never came from the cache").toBeDefined(),
  );
  expect(cacheStatus(await visit(userId, query))).toBe("HIT");
}

/** The benchmark's fresh render, honoured outside production only. */
const REFRESH = { "X-Passport-Refresh": "1" };

/** The session cookie of `cookie` with its value replaced (as a browser would send it). */
const SESSION_COOKIE = /((?:^|;\s*)passport\.session_token=)([^;]*)/;
const withSessionValue = (cookie: string, value: (signed: string) => string) =>
  cookie.replace(
    SESSION_COOKIE,
    (_pair, name: string, current: string) => `${name}${encodeURIComponent(value(decodeURIComponent(current)))}`,
  );

const achievementId = async (userId: string, title: string) =>
  (await env.DB.prepare("select id from achievements where user_id = ? and title like ?")
    .bind(userId, `${title}%`)
    .first<{ id: string }>())!.id;

describe("public passport at the edge", () => {
  it("renders with one D1 round trip, then comes from the cache with none", async () => {
    const person = await personWithAchievements(["First Aid", "Fire Warden"]);
    const fresh = await visit(person.id);
    expect(fresh.status).toBe(200);
    expect(cacheStatus(fresh)).toBe("MISS");
    expect(roundTrips(fresh)).toBe(1);
    expect(await fresh.text()).toContain(">First Aid</h3>");
    await warm(person.id);
    const cached = await visit(person.id);
    expect(cacheStatus(cached)).toBe("HIT");
    expect(roundTrips(cached)).toBe(0);
    expect(cached.headers.get("Cache-Control")).toBe("public, max-age=0, must-revalidate");
    expect(await cached.text()).toContain(">Fire Warden</h3>");
  });

  it("reports the rows D1 read and the time spent waiting for it for a render, and none for a page from the cache", async () => {
    const person = await personWithAchievements(["Counted Row"]);
    const fresh = await visit(person.id);
    await fresh.text();
    expect(Number(fresh.headers.get("X-D1-Rows-Read"))).toBeGreaterThan(0);
    expect(fresh.headers.get("Server-Timing")).toMatch(/^d1;dur=\d+;desc="waiting for D1"$/);
    await warm(person.id);
    const cached = await visit(person.id);
    await cached.text();
    expect(cached.headers.get("X-D1-Rows-Read")).toBe("0");
    expect(cached.headers.get("Server-Timing")).toBe('d1;dur=0;desc="waiting for D1"');
  });

  it("sends none of the D1 diagnostics (round trips, rows read, time waiting) in production", async () => {
    const { default: worker } = await import("#workers/test-app.ts");
    const context = createExecutionContext();
    const production = productionBindings();
    const response = await worker.fetch(new Request(`${ORIGIN}/terms`), production, context);
    await response.text();
    await waitOnExecutionContext(context);
    expect(response.status).toBe(200);
    for (const header of ["X-D1-Round-Trips", "X-D1-Rows-Read", "Server-Timing"]) {
      expect(response.headers.has(header), header).toBe(false);
    }
  });

  it("stores visitors' pages without any script, so no stale nonce is ever served", async () => {
    const person = await personWithAchievements(["Nonce Check"]);
    await warm(person.id);
    const response = await visit(person.id);
    expect(response.headers.get("Content-Security-Policy")).toMatch(/'nonce-[^']+'/);
    const html = await response.text();
    expect(html).not.toContain("<script");
    expect(html).not.toContain("nonce=");
  });

  it("serves a signed-in visitor (perhaps the owner) a fresh, private page, and renders afresh on X-Passport-Refresh", async () => {
    const person = await personWithAchievements(["Owner View"]);
    await warm(person.id);
    const owner = await get(`/passport/${person.id}`, person.cookie);
    expect(cacheStatus(owner)).toBe("BYPASS");
    expect(owner.headers.get("Cache-Control")).toBe("private, no-store");
    const refreshed = await visit(person.id, "", REFRESH);
    expect(cacheStatus(refreshed)).toBe("BYPASS");
    expect(roundTrips(refreshed)).toBe(1);
  });

  it("stores no refreshed page: only a miss fills the cache", async () => {
    const person = await personWithAchievements(["Refreshed"]);
    const refreshed = await visit(person.id, "", REFRESH);
    expect(cacheStatus(refreshed)).toBe("BYPASS");
    expect(await refreshed.text()).toContain(">Refreshed</h3>");
    const next = await visit(person.id);
    expect(cacheStatus(next)).toBe("MISS");
    await next.text();
  });

  it("does not store a page whose render began before its passport changed", async () => {
    const { edgeCache, invalidatePassports, passportCacheEntry, passportCacheOrigin, passportPage, storePassportPage } =
      await import("#app/utils/passport-cache.server.ts");
    const person = await personWithAchievements(["Raced"]);
    const entry = passportCacheEntry(
      passportPage(new URL(`${ORIGIN}/passport/${person.id}`))!,
      false,
      passportCacheOrigin(env),
    );
    const page = new TextEncoder().encode("<p>the page as it was</p>").buffer;
    const headers = new Headers({ "Content-Type": "text/html; charset=utf-8" });

    // A visit starts rendering, the owner's change lands and returns, then the visit finishes.
    const renderStartedAt = Date.now();
    await invalidatePassports(env, person.id);
    await storePassportPage(entry, page, headers, await render(renderStartedAt), env.PERSON_HUB);
    expect(await edgeCache().match(entry.key)).toBeUndefined();
    expect(cacheStatus(await visit(person.id))).toBe("MISS");
    // That visit's own render is stored after its answer (once the hub has answered): let it land,
    // or it could overwrite the page stored below.
    await vi.waitFor(async () => expect(await edgeCache().match(entry.key)).toBeDefined());

    // A render that began after the change is stored as usual.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await storePassportPage(entry, page, headers, await render(Date.now()), env.PERSON_HUB);
    expect(await (await edgeCache().match(entry.key))?.text()).toBe("<p>the page as it was</p>");
  });

  it("renders again a page another build stored, whose stylesheet a deploy may have removed", async () => {
    const {
      edgeCache,
      passportCacheEntry,
      passportCacheOrigin,
      passportPage,
      storePassportPage,
      PASSPORT_BUILD_HEADER,
    } = await import("#app/utils/passport-cache.server.ts");
    const person = await personWithAchievements(["Current Build"]);
    await warm(person.id);
    const entry = passportCacheEntry(
      passportPage(new URL(`${ORIGIN}/passport/${person.id}`))!,
      false,
      passportCacheOrigin(env),
    );
    const stored = (await edgeCache().match(entry.key))!;
    await stored.text();
    const build = stored.headers.get(PASSPORT_BUILD_HEADER);
    expect(build).toMatch(/^[0-9a-f]{8}$/);

    // What a data centre still holds from before a deploy: the earlier build's page and stylesheet.
    const earlier = new TextEncoder().encode('<link rel="stylesheet" href="/assets/app-gone.css">').buffer;
    const headers = new Headers({ "Content-Type": "text/html; charset=utf-8" });
    await storePassportPage(
      entry,
      earlier,
      headers,
      { ...(await render(Date.now())), build: "0ldbu1ld" },
      env.PERSON_HUB,
    );
    const visited = await visit(person.id);
    expect(cacheStatus(visited)).toBe("MISS");
    const html = await visited.text();
    expect(html).toContain(">Current Build</h3>");
    expect(html).not.toContain("app-gone.css");
    // The fresh render takes the entry's place, under the running build.
    await warm(person.id);
    const replaced = (await edgeCache().match(entry.key))!;
    await replaced.text();
    expect(replaced.headers.get(PASSPORT_BUILD_HEADER)).toBe(build);
  });

  it("stores the page as rendered, without the per-response headers", async () => {
    const person = await personWithAchievements(["Headers"]);
    await (await visit(person.id)).text();
    await warm(person.id);
    const { edgeCache, passportCacheEntry, passportCacheOrigin, passportPage } =
      await import("#app/utils/passport-cache.server.ts");
    const stored = (await edgeCache().match(
      passportCacheEntry(passportPage(new URL(`${ORIGIN}/passport/${person.id}`))!, false, passportCacheOrigin(env))
        .key,
    ))!;
    await stored.text();
    for (const header of ["X-Passport-Cache", "X-Request-Id", "Content-Security-Policy", "X-D1-Round-Trips"]) {
      expect(stored.headers.has(header), header).toBe(false);
    }
  });

  it("keeps ?all=1 apart and caches no missing passport", async () => {
    const person = await personWithAchievements(["Only One"]);
    await warm(person.id);
    expect(cacheStatus(await visit(person.id, "?all=1"))).toBe("MISS");
    const missing = crypto.randomUUID();
    await visit(missing);
    const again = await visit(missing);
    expect(again.status).toBe(404);
    expect(cacheStatus(again)).toBe("MISS");
  });

  const changes: [
    string,
    (person: { id: string; cookie: string }) => Promise<unknown>,
    (html: string, status: number) => void,
  ][] = [
    [
      "hiding an achievement",
      async (person) =>
        postForm(
          "/passport",
          { intent: "set-visibility", achievementId: await achievementId(person.id, "Kept"), visible: "false" },
          { cookie: person.cookie },
        ),
      (html) => expect(html).not.toContain(">Kept</h3>"),
    ],
    [
      "adding a self achievement",
      (person) =>
        postForm(
          "/passport",
          {
            intent: "add-self-achievement",
            formId: "self",
            title: "Brand New",
            company: "Acme",
            date: today(),
            type: "award",
          },
          { cookie: person.cookie },
        ),
      (html) => expect(html).toContain(">Brand New</h3>"),
    ],
    [
      "importing a history",
      async (person) =>
        addHistory(
          person.cookie,
          await reviewOf(
            await readHistory(person.cookie, [
              csvFile("Positions.csv", "Company Name,Title,Started On\nFabrikam,Imported Role,2020\n"),
            ]),
          ),
        ),
      (html) => expect(html).toContain(">Imported Role</h3>"),
    ],
    [
      "editing the biography",
      (person) => postForm("/passport", { intent: "update-bio", bio: "A fresh biography." }, { cookie: person.cookie }),
      (html) => expect(html).toContain("A fresh biography."),
    ],
    [
      "editing the profile",
      (person) =>
        postForm(
          "/settings?index",
          { intent: "update-profile", fullName: "Casey Renamed", bio: "", isPublic: "on" },
          { cookie: person.cookie },
        ),
      (html) => expect(html).toContain("Casey Renamed"),
    ],
    [
      "switching the passport off",
      (person) =>
        postForm(
          "/settings?index",
          { intent: "update-profile", fullName: "Casey Cached", bio: "" },
          { cookie: person.cookie },
        ),
      (_, status) => expect(status).toBe(404),
    ],
    [
      "uploading a picture",
      (person) => {
        const form = new FormData();
        form.set("avatar", new File([PNG_BYTES], "me.png", { type: "image/png" }));
        form.set("intent", "upload-avatar");
        return postMultipart("/profile/media", form, { cookie: person.cookie });
      },
      (html) => expect(html).toContain("/media/avatars/"),
    ],
    [
      "asking search engines not to list it",
      (person) =>
        postForm(
          "/settings?index",
          { intent: "update-preferences", recognitionEmails: "on" },
          { cookie: person.cookie },
        ),
      (html) => expect(html).toContain('<meta name="robots" content="noindex"/>'),
    ],
    [
      "uploading an introduction video",
      (person) => {
        const form = new FormData();
        form.set("introVideo", new File([mp4Bytes({ seconds: 5 })], "intro.mp4", { type: "video/mp4" }));
        form.set("intent", "upload-intro-video");
        return postMultipart("/profile/media", form, { cookie: person.cookie });
      },
      (html) => expect(html).toContain("/media/achievement-videos/intro-"),
    ],
    [
      "archiving the account",
      (person) => postForm("/settings/danger", { intent: "archive" }, { cookie: person.cookie }),
      (_, status) => expect(status).toBe(404),
    ],
  ];

  it.each(changes)("forgets the cached page on %s", async (_, change, expectFresh) => {
    const person = await personWithAchievements(["Kept"]);
    await warm(person.id);
    await warm(person.id, "?all=1");
    expect((await change(person)) instanceof Response).toBe(true);
    for (const query of ["", "?all=1"]) {
      const response = await visit(person.id, query);
      expect(cacheStatus(response)).toBe("MISS");
      expectFresh(await response.text(), response.status);
    }
  });

  it("forgets the cached page when its owner accepts an achievement", async () => {
    const { admin, organizationId } = await createOrganisation({
      adminName: "Test Person",
      name: uniqueName("Cachers"),
    });
    const member = await personWithAchievements(["Kept"]);
    await joinByInviteLink(organizationId, member.cookie);
    await giveAchievement(admin.cookie, { userId: member.id, title: "Team Award", date: today(), type: "award" });
    await warm(member.id);
    expect(await (await visit(member.id)).text()).not.toContain("Team Award");
    await postForm(
      "/passport",
      { intent: "accept", achievementId: await achievementId(member.id, "Team Award") },
      { cookie: member.cookie },
    );
    expect(await (await visit(member.id)).text()).toContain("Team Award");
  });
});

describe("public passport at the edge, after a change by someone else", () => {
  it("forgets the member's cached page when the issuing admin revokes a credential", async () => {
    const { admin, member, credentialId } = await issuedCredential({ title: "Revoked Later" });
    await warm(member.id);
    expect(await (await visit(member.id)).text()).toContain(">Revoked Later</h3>");
    await postForm("/dashboard/achievements", { intent: "revoke", credentialId }, { cookie: admin.cookie });
    const response = await visit(member.id);
    expect(cacheStatus(response)).toBe("MISS");
    expect(await response.text()).not.toContain(">Revoked Later</h3>");
  });

  it("forgets it when the owner removes their introduction video", async () => {
    const person = await personWithAchievements(["Kept"]);
    const form = new FormData();
    form.set("introVideo", new File([mp4Bytes({ seconds: 5 })], "intro.mp4", { type: "video/mp4" }));
    form.set("intent", "upload-intro-video");
    await postMultipart("/profile/media", form, { cookie: person.cookie });
    await warm(person.id);
    expect(await (await visit(person.id)).text()).toContain("/media/achievement-videos/intro-");
    await postForm("/profile/media", { intent: "remove-intro-video" }, { cookie: person.cookie });
    const response = await visit(person.id);
    expect(cacheStatus(response)).toBe("MISS");
    expect(await response.text()).not.toContain("/media/achievement-videos/intro-");
  });
});

describe("landing page", () => {
  it("costs a visitor no D1 round trip and ships no script", async () => {
    const response = await get("/");
    expect(roundTrips(response)).toBe(0);
    expect(await response.text()).not.toContain("<script");
  });
});

describe("responsive images", () => {
  it("offer resized copies of our own images only when the zone resizes images", async () => {
    const { responsiveSrcSet } = await import("#app/utils/media.server.ts");
    const srcSet = responsiveSrcSet("/media/achievement-images/org/a.png", true);
    expect(srcSet?.split(", ")).toEqual(
      [320, 640, 960, 1280].map(
        (width) =>
          `/cdn-cgi/image/width=${width},fit=scale-down,format=auto/media/achievement-images/org/a.png ${width}w`,
      ),
    );
    expect(responsiveSrcSet("/media/achievement-images/org/a.png", false)).toBeUndefined();
    expect(responsiveSrcSet("https://images.example/a.png", true)).toBeUndefined();
  });
});

// Issue 34's review findings: nothing a visitor sends makes a passport view a render, and nothing
// older than a passport's last change is put back in the cache.
describe("public passport at the edge: requests that cannot be made expensive", () => {
  it.each([
    ["an unsigned session cookie (its token alone)", (signed: string) => signed.slice(0, signed.lastIndexOf("."))],
    [
      "a session cookie with a forged signature",
      (signed: string) => `${signed.slice(0, signed.lastIndexOf("."))}.${"A".repeat(43)}=`,
    ],
    ["a made-up session cookie", () => "not-a-session"],
  ])("serves %s from the cache, reading nothing", async (_, forge) => {
    const person = await personWithAchievements(["Shared Page"]);
    await warm(person.id);
    const response = await get(`/passport/${person.id}`, withSessionValue(person.cookie, forge));
    expect(cacheStatus(response)).toBe("HIT");
    expect(roundTrips(response)).toBe(0);
    expect(await response.text()).toContain(">Shared Page</h3>");
  });

  it("serves an anonymous visitor's Cache-Control: no-cache from the cache", async () => {
    const person = await personWithAchievements(["Hard Reload"]);
    await warm(person.id);
    const response = await visit(person.id, "", { "Cache-Control": "no-cache", Pragma: "no-cache" });
    expect(cacheStatus(response)).toBe("HIT");
    expect(roundTrips(response)).toBe(0);
    await response.text();
  });

  // Issue 43: the outside review's findings.
  it("serves the cookie of an ended session from the cache, reading only the session", async () => {
    const person = await personWithAchievements(["Signed Out"]);
    await warm(person.id);
    expect((await postForm("/auth/signout", {}, { cookie: person.cookie })).status).toBe(302);
    const response = await get(`/passport/${person.id}`, person.cookie);
    expect(cacheStatus(response)).toBe("HIT");
    // The session guard's one read, which finds no session.
    expect(roundTrips(response)).toBe(1);
    expect(await response.text()).toContain(">Signed Out</h3>");
  });

  it("serves a query string or a trailing slash from the page's own entry", async () => {
    const person = await personWithAchievements(["One Address"]);
    // The first visit, with a tracking parameter, fills the page's own entry.
    await (await visit(person.id, "?utm_source=share")).text();
    await warm(person.id);
    await warm(person.id, "?all=1");
    for (const query of ["/", "?utm_source=share", "?ref=a&ref=b", "/?fbclid=x", "?all=0", "?after=x"]) {
      const response = await visit(person.id, query);
      expect(cacheStatus(response), query).toBe("HIT");
      expect(await response.text()).toContain(">One Address</h3>");
    }
    for (const query of ["?all=1&utm_source=share", "/?utm_source=share&all=1"]) {
      expect(cacheStatus(await visit(person.id, query)), query).toBe("HIT");
    }
  });

  it("honours X-Passport-Refresh only outside production", async () => {
    const { default: worker } = await import("#workers/test-app.ts");
    const person = await personWithAchievements(["Benchmarked"]);
    await warm(person.id);
    const context = createExecutionContext();
    const response = await worker.fetch(
      new Request(`${ORIGIN}/passport/${person.id}`, { headers: REFRESH }),
      productionBindings(),
      context,
    );
    await response.text();
    await waitOnExecutionContext(context);
    expect(cacheStatus(response)).toBe("HIT");
  });

  it("does not store a render that read a replica older than the passport's last change", async () => {
    const { edgeCache, passportCacheEntry, passportCacheOrigin, passportPage, storePassportPage } =
      await import("#app/utils/passport-cache.server.ts");
    const person = await personWithAchievements(["Replicated"]);
    // What a replica that has not caught up yet answers with: the state before the change.
    const before = await bookmarkNow();
    await postForm(
      "/passport",
      { intent: "update-bio", bio: "Written after the replica's copy." },
      { cookie: person.cookie },
    );
    const after = await bookmarkNow();
    expect(after > before).toBe(true);

    const entry = passportCacheEntry(
      passportPage(new URL(`${ORIGIN}/passport/${person.id}`))!,
      false,
      passportCacheOrigin(env),
    );
    const page = new TextEncoder().encode("<p>the page without the new biography</p>").buffer;
    const headers = new Headers({ "Content-Type": "text/html; charset=utf-8" });
    // The render began after the change (its clock says so), but read the lagging replica.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await storePassportPage(entry, page, headers, await render(Date.now(), before), env.PERSON_HUB);
    expect(await edgeCache().match(entry.key)).toBeUndefined();

    // A render that read a copy as new as the change is stored.
    await storePassportPage(entry, page, headers, await render(Date.now(), after), env.PERSON_HUB);
    expect(await (await edgeCache().match(entry.key))?.text()).toBe("<p>the page without the new biography</p>");
  });

  it("does not store, in another data centre, a render that read a replica older than the change made elsewhere", async () => {
    const { edgeCache, passportCacheEntry, passportCacheOrigin, passportPage, storePassportPage } =
      await import("#app/utils/passport-cache.server.ts");
    const person = await personWithAchievements(["Far Away"]);
    const before = await bookmarkNow();
    await postForm("/passport", { intent: "update-bio", bio: "Written in another place." }, { cookie: person.cookie });
    const after = await bookmarkNow();
    // Elsewhere the purge took the change's marker with the pages: only the user's hub knows the change.
    const origin = passportCacheOrigin(env);
    expect(await edgeCache().delete(`${origin}/passport/${person.id}/changed`)).toBe(true);
    const entry = passportCacheEntry(passportPage(new URL(`${ORIGIN}/passport/${person.id}`))!, false, origin);
    const page = new TextEncoder().encode("<p>the page without the new biography</p>").buffer;
    const headers = new Headers({ "Content-Type": "text/html; charset=utf-8" });
    await storePassportPage(entry, page, headers, await render(Date.now(), before), env.PERSON_HUB);
    expect(await edgeCache().match(entry.key)).toBeUndefined();

    await storePassportPage(entry, page, headers, await render(Date.now(), after), env.PERSON_HUB);
    expect(await (await edgeCache().match(entry.key))?.text()).toBe("<p>the page without the new biography</p>");
  });

  it("stores a page whose render read as far as the change, through the Worker", async () => {
    const person = await personWithAchievements(["Caught Up"]);
    await postForm("/passport", { intent: "update-bio", bio: "Seen by the next render." }, { cookie: person.cookie });
    await warm(person.id);
    expect(await (await visit(person.id)).text()).toContain("Seen by the next render.");
  });
});

describe("public passport at the edge in production without the purge API", () => {
  const cloudflareApiBase = () => inject("cloudflareApiBase");
  /** Production's bindings, with or without the purge credentials. */
  const deployed = (purge: boolean) =>
    ({
      ...productionBindings(),
      ...(purge
        ? {
            CLOUDFLARE_ZONE_ID: "a".repeat(32),
            CLOUDFLARE_API_TOKEN: "token",
            CLOUDFLARE_API_BASE: cloudflareApiBase(),
          }
        : {}),
    }) as unknown as Env;

  /** Fetches `path` from a Worker with `bindings` and waits for its cache write. */
  async function fetchAndStore(path: string, bindings: Env) {
    const { default: worker } = await import("#workers/test-app.ts");
    const context = createExecutionContext();
    const response = await worker.fetch(new Request(`${ORIGIN}${path}`), bindings, context);
    await response.arrayBuffer();
    await waitOnExecutionContext(context);
    return response;
  }

  /** The Cache-Control each of a passport's cached things is stored with at the edge. */
  async function storedLifetimes(userId: string, bindings: Env) {
    const { edgeCache, passportCacheEntry, passportCacheOrigin, passportCardCacheKey, passportPage } =
      await import("#app/utils/passport-cache.server.ts");
    const origin = passportCacheOrigin(env);
    const lifetimes: Record<string, string | null> = {};
    for (const path of [`/passport/${userId}`, `/passport/${userId}/print`, `/passport/${userId}/card.png`]) {
      expect((await fetchAndStore(path, bindings)).status, path).toBe(200);
      const key = path.endsWith("card.png")
        ? passportCardCacheKey(origin, userId)
        : passportCacheEntry(passportPage(new URL(`${ORIGIN}${path}`))!, false, origin).key;
      const stored = await edgeCache().match(key);
      await stored?.arrayBuffer();
      lifetimes[path.slice(`/passport/${userId}`.length) || "/"] = stored?.headers.get("Cache-Control") ?? null;
    }
    return lifetimes;
  }

  it("keeps every passport page, print view and card at the edge for 60 seconds at most", async () => {
    const person = await personWithAchievements(["Capped"]);
    expect(await storedLifetimes(person.id, deployed(false))).toEqual({
      "/": "public, max-age=0, s-maxage=60",
      "/print": "public, max-age=0, s-maxage=60",
      "/card.png": "public, s-maxage=60",
    });
  });

  it("keeps them for their usual lifetimes when a change can purge every data centre", async () => {
    const person = await personWithAchievements(["Purged"]);
    expect(await storedLifetimes(person.id, deployed(true))).toEqual({
      "/": "public, max-age=0, s-maxage=300, stale-while-revalidate=600",
      "/print": "public, max-age=0, s-maxage=300, stale-while-revalidate=600",
      "/card.png": "public, s-maxage=86400",
    });
  });
});
