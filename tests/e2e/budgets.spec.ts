import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { routeBundle, SIGNED_IN_JS_BUDGET, SIGNED_IN_ROUTES } from "../../scripts/bench/bundles.mjs";
import { expect, test } from "./fixtures.ts";

// Byte budgets of the pages visitors open from a phone: the public passport (8 entries on screen) and the
// landing page, as served by the production build. Sizes are gzip level 9.
const ALEX_ID = "5eed0000-0000-4000-8000-000000000002";
const KB = 1024;
const BUDGETS = { html: 14 * KB, js: 90 * KB, css: 12 * KB };
const gzipBytes = (body: Buffer | string) => gzipSync(body, { level: 9 }).length;

for (const [name, path] of [
  ["public passport", `/passport/${ALEX_ID}`],
  ["landing page", "/"],
] as const) {
  test(`the ${name} stays within its byte budgets and asks no other site for anything`, async ({
    page,
    request,
    baseURL,
  }) => {
    const response = await request.get(path);
    expect(response.status()).toBe(200);
    const html = await response.text();
    // Alex's 10 entries: 8 on screen and, for print, the other 2 (a passport of at most 50 sends all).
    if (name === "public passport") expect(html.match(/<article/g)).toHaveLength(10);

    const urls = (pattern: RegExp) => [...html.matchAll(pattern)].map((match) => match[1]!);
    const scripts = [
      ...urls(/<script[^>]*\ssrc="([^"]+)"/g),
      ...urls(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g),
    ];
    const styles = urls(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g);
    const total = async (list: string[]) => {
      let sum = 0;
      for (const url of new Set(list)) sum += gzipBytes(await (await request.get(url)).body());
      return sum;
    };
    const sizes = { html: gzipBytes(html), js: await total(scripts), css: await total(styles) };
    test.info().annotations.push({ type: "gzip bytes", description: JSON.stringify(sizes) });
    expect(sizes.html).toBeLessThanOrEqual(BUDGETS.html);
    expect(sizes.js).toBeLessThanOrEqual(BUDGETS.js);
    expect(sizes.css).toBeLessThanOrEqual(BUDGETS.css);
    expect(styles.length).toBeGreaterThan(0);

    // Fonts, images and scripts all come from this site: no third-party request at all.
    const origins = new Set<string>();
    page.on("request", (request) => origins.add(new URL(request.url()).origin));
    await page.goto(path, { waitUntil: "networkidle" });
    expect([...origins]).toEqual([new URL(baseURL!).origin]);
  });
}

test("the server bundle is production code, whatever server runs it", () => {
  // `wrangler dev` would otherwise make it run React's development build, about twice the render
  // cost of every page (docs/decisions/013).
  expect(readFileSync("build/server/index.js", "utf8")).not.toContain("process.env.NODE_ENV");
});

// The signed-in pages people use every day (issue 19): the JavaScript of their first load, read
// from the build (scripts/bench/bundles.mjs, the same figures as bench/bundles.md).
test.describe("signed-in pages", () => {
  for (const { path, routeId } of SIGNED_IN_ROUTES) {
    test(`${path} loads at most 100 kB of JavaScript at first, and its popovers, dialogs and forms lazily`, () => {
      const bundle = routeBundle(routeId);
      test.info().annotations.push({ type: "first-load JS gzip bytes", description: String(bundle.js) });
      expect(bundle.js).toBeLessThanOrEqual(SIGNED_IN_JS_BUDGET);
      // What only an interaction needs is not in the first load: radix's dialog (every dialog's
      // frame) and the notification popover's popper.
      const lazy = bundle.lazy.map((file) => file.path).join(" ");
      expect(lazy).toMatch(/dialog-frames-/);
      expect(lazy).toMatch(/notification-popover-/);
      // Nor is Conform: a form that needs it at first comes after the first interaction (decision 049).
      expect(bundle.initial.map((file) => file.path).join(" ")).not.toMatch(
        /dialog-frames-|notification-popover-|use-validated-form-/,
      );
    });
  }

  test("the report's first load is what a signed-in page really preloads", async ({ page, request }) => {
    const signIn = await request.post("/auth", {
      form: { intent: "signin", email: "admin@example.com", password: "passport-demo" },
    });
    expect(signIn.ok()).toBe(true);
    const response = await request.get("/dashboard");
    expect(response.status()).toBe(200);
    const html = await response.text();
    const preloaded = [...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map((match) => match[1]!);
    expect(preloaded.length).toBeGreaterThan(0);
    const { initial } = routeBundle("routes/_app.dashboard");
    expect(initial.map((file) => file.path).sort()).toEqual([...new Set(preloaded)].sort());

    // And what loads lazily does load when asked: the bell's popover on the first press.
    await page
      .context()
      .addCookies(
        (await request.storageState()).cookies.map(({ name, value, domain, path }) => ({ name, value, domain, path })),
      );
    await page.goto("/dashboard");
    const popoverChunk = page.waitForRequest(/notification-popover-/);
    await page.getByRole("button", { name: /^Notifications/ }).click();
    await popoverChunk;
    await expect(page.getByRole("dialog").getByRole("heading", { name: "Notifications" })).toBeVisible();
  });
});

// Issue 19's CLS budget (at most 0.01) for the signed-in pages, held at zero: nothing the server
// renders moves while the page loads its scripts and hydrates, on a phone or a desktop. Every
// layout shift Chromium records from the first paint until hydration is done fails the test.
test.describe("signed-in pages do not shift while they load and hydrate", () => {
  const PAGES = [
    { page: "the admin's dashboard", path: "/dashboard", email: "admin@example.com" },
    { page: "a member's dashboard", path: "/dashboard", email: "alex@example.com" },
    { page: "a member's passport", path: "/passport", email: "alex@example.com" },
    { page: "a member's settings", path: "/settings", email: "alex@example.com" },
  ];
  const VIEWPORTS = [
    { device: "phone", viewport: { width: 412, height: 823 } },
    { device: "desktop", viewport: { width: 1280, height: 720 } },
  ];
  for (const { device, viewport } of VIEWPORTS) {
    for (const { page: name, path, email } of PAGES) {
      test(`${name} on a ${device}`, async ({ page }) => {
        await page.setViewportSize(viewport);
        // page.request shares the page's cookies: the session is the page's.
        const signIn = await page.request.post("/auth", {
          form: { intent: "signin", email, password: "passport-demo" },
        });
        expect(signIn.ok()).toBe(true);
        await page.addInitScript(() => {
          const shifts: string[] = [];
          Object.assign(window, { __layoutShifts: shifts });
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as (PerformanceEntry & {
              value: number;
              hadRecentInput: boolean;
              sources: { node?: Node; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
            })[]) {
              if (entry.hadRecentInput) continue;
              const moved = entry.sources.map(({ node, previousRect: from, currentRect: to }) => {
                const element = node instanceof Element ? node : node?.parentElement;
                const what = element ? `<${element.tagName.toLowerCase()} class="${element.className}">` : "a node";
                return `${what} from ${from.x},${from.y} ${from.width}×${from.height} to ${to.x},${to.y} ${to.width}×${to.height}`;
              });
              shifts.push(`${entry.value.toFixed(4)} at ${entry.startTime.toFixed(0)} ms: ${moved.join("; ")}`);
            }
          }).observe({ type: "layout-shift", buffered: true });
        });
        await page.goto(path, { waitUntil: "networkidle" });
        expect(new URL(page.url()).pathname).toBe(path);
        // Hydrated: React has claimed the server's <main> (its fiber is on the element).
        await page.waitForFunction(() => {
          const main = document.querySelector("main");
          return main !== null && Object.keys(main).some((key) => key.startsWith("__reactFiber"));
        });
        // Two frames, so a shift caused by hydration's last commit is laid out and recorded.
        await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
        expect(await page.evaluate(() => (window as unknown as { __layoutShifts: string[] }).__layoutShifts)).toEqual(
          [],
        );
      });
    }
  }
});
