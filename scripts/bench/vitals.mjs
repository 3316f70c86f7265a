// LCP, CLS and total blocking time of a cold first visit from a mid-range phone on a slow mobile
// network, in headless Chromium: a fresh browser context per run (empty HTTP cache, no cookies),
// network and CPU throttled through the DevTools protocol as Lighthouse's mobile preset does.
import { chromium } from "@playwright/test";
import { BROWSER_ARGS, BROWSER_PATH } from "../browser.mjs";

// Lighthouse's mobile "Slow 4G" (constants.throttling.mobileSlow4G) and its 4x CPU slowdown.
// Throughputs are converted to bytes per second as Lighthouse does (kbps × 1024 / 8).
export const THROTTLING = { rttMs: 150, downloadKbps: 1.6 * 1024, uploadKbps: 750, cpuSlowdown: 4 };
// Lighthouse's mobile viewport (a Moto G Power): what a shared link is opened on.
const PHONE = { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true };
// After `load`, how long to keep listening for late long tasks and layout shifts.
const QUIET_MS = 1500;

export async function launchBrowser() {
  return chromium.launch({ executablePath: BROWSER_PATH, args: BROWSER_ARGS });
}

/**
 * Median LCP, CLS and TBT over `runs` cold loads of `url`, with every run's figures. `cookies`
 * (`[{ name, value }]`, a session) make each cold load a signed-in one: still no HTTP cache.
 */
export async function measureVitals(browser, url, runs, { cookies = [] } = {}) {
  const samples = [];
  for (let i = 0; i < runs; i++) samples.push(await coldLoad(browser, url, cookies));
  const median = (key) => medianOf(samples.map((sample) => sample[key]));
  return { lcp: median("lcp"), cls: median("cls"), tbt: median("tbt"), fcp: median("fcp"), samples };
}

async function coldLoad(browser, url, cookies) {
  const context = await browser.newContext(PHONE);
  try {
    await context.addCookies(cookies.map((cookie) => ({ ...cookie, url: new URL(url).origin })));
    const page = await context.newPage();
    await page.addInitScript(observeVitals);
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: THROTTLING.rttMs,
      downloadThroughput: (THROTTLING.downloadKbps * 1024) / 8,
      uploadThroughput: (THROTTLING.uploadKbps * 1024) / 8,
    });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: THROTTLING.cpuSlowdown });
    const response = await page.goto(url, { waitUntil: "load", timeout: 120_000 });
    if (!response?.ok()) throw new Error(`GET ${url} in Chromium: ${response?.status()}`);
    // A lost session would measure the sign-in page instead.
    if (new URL(page.url()).pathname !== new URL(url).pathname)
      throw new Error(`GET ${url} in Chromium ended on ${page.url()}`);
    await page.waitForTimeout(QUIET_MS);
    return await page.evaluate(readVitals);
  } finally {
    await context.close();
  }
}

// Runs in the page before any of its scripts (addInitScript); buffered observers also catch
// entries recorded before they were registered.
function observeVitals() {
  const vitals = { lcp: null, fcp: null, shifts: [], longTasks: [] };
  window.__benchVitals = vitals;
  const observe = (type, onEntry) => {
    try {
      new PerformanceObserver((list) => list.getEntries().forEach(onEntry)).observe({ type, buffered: true });
    } catch {
      // Entry type not supported: the figure stays empty rather than breaking the page.
    }
  };
  observe("largest-contentful-paint", (entry) => (vitals.lcp = entry.startTime));
  observe("paint", (entry) => {
    if (entry.name === "first-contentful-paint") vitals.fcp = entry.startTime;
  });
  observe("layout-shift", (entry) => {
    if (!entry.hadRecentInput) vitals.shifts.push({ start: entry.startTime, value: entry.value });
  });
  observe("longtask", (entry) => vitals.longTasks.push({ start: entry.startTime, duration: entry.duration }));
}

// Runs in the page: CLS as the largest session window (gaps under 1 s, at most 5 s long), as
// web-vitals defines it; TBT as the part of each long task after FCP beyond 50 ms.
function readVitals() {
  const { lcp, fcp, shifts, longTasks } = window.__benchVitals;
  let cls = 0;
  let windowValue = 0;
  let windowStart = -Infinity;
  let previous = -Infinity;
  for (const shift of shifts) {
    if (shift.start - previous > 1000 || shift.start - windowStart > 5000) {
      windowValue = 0;
      windowStart = shift.start;
    }
    windowValue += shift.value;
    previous = shift.start;
    cls = Math.max(cls, windowValue);
  }
  const from = fcp ?? 0;
  const tbt = longTasks.reduce((sum, task) => {
    const afterFcp = task.start + task.duration - Math.max(task.start, from);
    return sum + Math.max(0, afterFcp - 50);
  }, 0);
  return { lcp, fcp, cls, tbt };
}

function medianOf(values) {
  const present = values.filter((value) => value !== null && Number.isFinite(value)).sort((a, b) => a - b);
  if (present.length === 0) return null;
  const middle = Math.floor(present.length / 2);
  return present.length % 2 ? present[middle] : (present[middle - 1] + present[middle]) / 2;
}
